// Every read of the control plane that shows a kind of record shows each status that record can
// be left in, and tells the statuses apart: a count, a list or a total that shows a transfer that
// went through shows a pending one and a failed one too, differently (docs/ARCHITECTURE.md, a
// read-only query). Routes are taken from the control document, so a read added later is walked
// too. What a write changes in a read is measured against the same change of balance made alone
// (`PUT /users/{user_id}/balance`), so that a read showing only the money (a balance) is not taken
// for one showing the records; money a read shows moves as the money does, whatever moved it
// (a payment, a debit, a debit refunded: nothing in all).
// And no count stops at a page: one record more than the longest page still moves a read, and
// none is of a window of time: a record a year old is still shown. The
// company read has two users, the second not named after it: what either does is the company's,
// and money a read shows moves with either user's, or is shown beside the id of the one whose it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CANCEL_REASONS, CHARGE_STATUSES, TRANSFER_STATUSES } from '../../src/domain/enums.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import {
  ACME,
  changed,
  type Leaves,
  leavesOf,
  namesStatus,
  stateWrites,
  statusOf,
  type Write,
} from './record-states.js'

type Json = Record<string, any>

/** Reads that show something else than records, with the reason. */
const NOT_OF_RECORDS: Record<string, string> = {
  '/requests': 'the journal: every call, whatever it wrote',
  '/requests/count': 'the journal: every call, whatever it wrote',
  '/readiness':
    "the integration's calls and their answers: a charge the sandbox pays is not a call of the integration's",
  '/users/{user_id}/balance':
    'the ledger: its entries are balance changes (docs/DESIGN.md#invariants), so a record that moved no money (a failed transfer, a charge not paid) is not in it',
}

const IDS: Record<string, string> = { company_id: 'acme', user_id: 'acme-user' }
const USER = IDS.user_id!

let sb: TestSandbox
const { TRANSFERS, CHARGES } = stateWrites(() => sb)
let reads: string[]
/** The most a list of the control plane answers at once (its largest `limit`). */
let longestPage: number
/** /_sandbox/openapi.json. */
let doc: Json
beforeAll(async () => {
  sb = await startTestSandbox()
  doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
  // Every GET whose path names no record but a company or a user: a read of many records.
  reads = Object.entries<Json>(doc.paths)
    .filter(([template, ops]) => ops.get && !(template in NOT_OF_RECORDS))
    .filter(([template]) => [...template.matchAll(/\{(\w+)\}/g)].every(([, id]) => id! in IDS))
    .map(([template]) => template)
  longestPage = Math.max(
    ...Object.values<Json>(doc.paths).flatMap((ops) =>
      Object.values<Json>(ops).flatMap((op) =>
        (op.parameters ?? [])
          .filter((p: Json) => p.name === 'limit')
          .map((p: Json) => p.schema.maximum as number),
      ),
    ),
  )
})
afterAll(() => sb.close())

async function readAll(): Promise<Map<string, Leaves>> {
  const answers = new Map<string, Leaves>()
  for (const template of reads) {
    const path = template.replace(/\{(\w+)\}/g, (_, id: string) => IDS[id]!)
    const answer = await sb.admin('GET', path)
    expect(answer.status, `GET ${path}: ${answer.text}`).toBe(200)
    answers.set(template, leavesOf(answer.body))
  }
  return answers
}

interface Seen {
  /** Per read: the leaves the write changed. */
  changed: Map<string, Set<string>>
  before: Map<string, Leaves>
  after: Map<string, Leaves>
  /** The user's balance before the write and after it. */
  start: number | undefined
  balance: number | undefined
}

/** On a fresh default scenario: every read, the write, every read again. */
async function around(write: Write): Promise<Seen> {
  expect((await sb.admin('POST', '/reset')).status).toBe(200)
  sb.apply({ companies: [ACME] })
  await write.prepare?.()
  const start = sb.sandbox.store.ledger.balance(USER)
  const before = await readAll()
  await write()
  const after = await readAll()
  return {
    changed: new Map(reads.map((r) => [r, changed(before.get(r)!, after.get(r)!)])),
    before,
    after,
    start,
    balance: sb.sandbox.store.ledger.balance(USER),
  }
}

/** The same change of the user's balance as the write made, made alone from the same start (prepared alike). */
const sameMoneyAlone = (seen: Seen, prepare: Write['prepare']) =>
  around(
    Object.assign(
      async () => {
        if (seen.balance !== sb.sandbox.store.ledger.balance(USER))
          await sb.admin('PUT', `/users/${USER}/balance`, { amount: seen.balance })
      },
      { prepare },
    ),
  )

/** Per user and read, the leaves that show money: those a change of the user's balance alone moves by as much. */
const moneyLeaves = new Map<string, Map<string, string[]>>()
async function shownMoney(user = USER): Promise<Map<string, string[]>> {
  const known = moneyLeaves.get(user)
  if (known) return known
  const probe = 777_777
  const seen = await around(async () => {
    const at = sb.sandbox.store.ledger.balance(user)!
    await sb.admin('PUT', `/users/${user}/balance`, { amount: at + probe })
  })
  const shown = new Map(
    reads.map((read) => {
      const [before, after] = [seen.before.get(read)!, seen.after.get(read)!]
      const moved = [...seen.changed.get(read)!].filter(
        (p) => typeof before.get(p) === 'number' && typeof after.get(p) === 'number',
      )
      // Money is cents end to end (docs/DESIGN.md#invariants): a number the balance alone moves
      // moves by as much, not rounded, scaled or counted.
      for (const p of moved)
        expect(
          (after.get(p) as number) - (before.get(p) as number),
          `GET ${read}: ${p} after a change of balance of ${probe} cents alone`,
        ).toBe(probe)
      return [read, moved]
    }),
  )
  moneyLeaves.set(user, shown)
  return shown
}

/**
 * Per read, the leaves a write changed beyond what its money alone changes (`money`). And money
 * a read shows (a balance, a sum of balances) moves with the money, whatever moved it: a number
 * the money alone moves by as much as the balance moves by as much with the write, and one that
 * shows money moves by what the write moved in all (nothing, for a debit refunded).
 */
function beyondItsMoney(
  seen: Seen,
  money: Seen,
  what: string,
  shown: Map<string, string[]>,
): Map<string, Set<string>> {
  const moved = seen.balance! - seen.start!
  return new Map(
    reads.map((read) => {
      const alone = money.changed.get(read)!
      const [w, m] = [seen.after.get(read)!, money.after.get(read)!]
      const by = (l: Leaves, p: string) =>
        (l.get(p) as number) - (seen.before.get(read)!.get(p) as number)
      for (const p of alone)
        if (typeof m.get(p) === 'number' && by(m, p) === moved)
          expect(by(w, p), `GET ${read}: ${p} after ${what}`).toBe(moved)
      for (const p of shown.get(read)!)
        expect(by(w, p), `GET ${read}: ${p}, which shows money, after ${what}`).toBe(moved)
      return [
        read,
        new Set([...seen.changed.get(read)!].filter((p) => !alone.has(p) || w.get(p) !== m.get(p))),
      ]
    }),
  )
}

/** Words that give money to one user: "its first user's", "the main user", "its user's". */
const ONE_USERS = /\buser's\b|\b(first|main|primary|single|one|default) user\b/i

/** The description /_sandbox/openapi.json gives the leaf `at` (`data.0.balance`) of a read's answer. */
function describedAt(read: string, at: string): string | undefined {
  const resolve = (s: Json): Json => {
    if (s.$ref) return resolve(doc.components.schemas[s.$ref.split('/').pop()])
    const inner = (s.allOf ?? s.anyOf ?? []).find((p: Json) => p.properties || p.items || p.$ref)
    return inner ? resolve(inner) : s
  }
  let schema: Json | undefined =
    doc.paths[read].get.responses['200'].content['application/json'].schema
  let said: string | undefined
  for (const part of at.split('.')) {
    const here: Json = resolve(schema!)
    schema = /^\d+$/.test(part) ? here.items : here.properties?.[part]
    if (!schema) return undefined
    said = schema.description ?? resolve(schema).description
  }
  return said
}

describe('a read that shows a kind of record shows each of its states, each its own way', () => {
  it('the writes below leave a charge and a transfer in every state the domain has', () => {
    const other = " (by the company's other user)"
    expect(Object.keys(TRANSFERS)).toEqual([
      ...TRANSFER_STATUSES,
      `failed${other}`,
      'pending (its settlement scheduled, as a success)',
      'failed (settled from pending: its debit refunded)',
    ])
    expect(Object.keys(CHARGES)).toEqual([
      ...CHARGE_STATUSES.filter((s) => s !== 'cancelled'),
      ...CANCEL_REASONS.map((r) => `cancelled (${r})`),
      `pending${other}`,
      'pending (made with a payload: a code reused)',
    ])
  })

  it.each([
    ['transfer', TRANSFERS],
    ['charge', CHARGES],
  ])(
    'a read showing a %s shows it in every state, and no two states alike',
    async (kind, writes) => {
      expect(reads.length).toBeGreaterThan(8)
      const shown = await shownMoney()
      expect([...shown.values()].flat().length, 'some read shows money').toBeGreaterThan(0)
      /** Per state: per read, the leaves the write changed beyond what its money alone changes. */
      const beyond = new Map<string, Map<string, Set<string>>>()
      const afters = new Map<string, Map<string, Leaves>>()
      for (const [state, write] of Object.entries(writes)) {
        const seen = await around(write)
        beyond.set(
          state,
          beyondItsMoney(
            seen,
            await sameMoneyAlone(seen, write.prepare),
            `a ${kind} left ${state}`,
            shown,
          ),
        )
        afters.set(state, seen.after)
      }
      const states = [...beyond.keys()]
      for (const read of reads) {
        const showing = states.filter((s) => beyond.get(s)!.get(read)!.size > 0)
        if (showing.length === 0) continue
        for (const state of states) {
          const leaves = [...beyond.get(state)!.get(read)!]
          expect(
            leaves.length,
            `GET ${read} shows a ${kind} left ${showing.join(', ')}, but not one left ${state} (beyond its money)`,
          ).toBeGreaterThan(0)
          // And shows it under its status's name: a key (a count by status) or a value (a record's).
          const status = statusOf(state)!
          const after = afters.get(state)!.get(read)!
          expect(
            leaves.some((p) => p.split('.').includes(status) || namesStatus(after.get(p), status)),
            `GET ${read} shows a ${kind} left ${state} where nothing says ${status}: ${leaves.join(', ')}`,
          ).toBe(true)
        }
        for (const [i, a] of states.entries())
          for (const b of states.slice(i + 1).filter((b) => statusOf(b) !== statusOf(a))) {
            const paths = [...beyond.get(a)!.get(read)!, ...beyond.get(b)!.get(read)!]
            const [la, lb] = [afters.get(a)!.get(read)!, afters.get(b)!.get(read)!]
            expect(
              paths.some((p) => la.get(p) !== lb.get(p)),
              `GET ${read} answers a ${kind} left ${a} as one left ${b}`,
            ).toBe(true)
          }
      }
    },
  )

  it("shows a user's money as the company's (every user's), or beside that user's id", async () => {
    const users = ACME.users.map((u) => u.id)
    const shown: Map<string, string[]>[] = []
    for (const user of users) shown.push(await shownMoney(user))
    const { after } = await around(async () => {})
    for (const read of reads.filter((r) => !r.includes('{user_id}'))) {
      const answer = after.get(read)!
      for (const leaf of new Set(shown.flatMap((m) => m.get(read)!))) {
        const following = users.filter((_, i) => shown[i]!.get(read)!.includes(leaf))
        if (following.length === users.length) {
          // The company's money, and the document says so: not one user's.
          const said = describedAt(read, leaf)
          expect(said, `GET ${read}: ${leaf}'s description`).toBeDefined()
          expect(
            said,
            `GET ${read}: ${leaf} is the company's money (every user's), but its description says one user's`,
          ).not.toMatch(ONE_USERS)
          continue
        }
        // A user's own money: the object holding it (or one around it) names that user.
        const named = [...answer].some(
          ([at, value]) =>
            value === following[0] && leaf.startsWith(at.split('.').slice(0, -1).join('.')),
        )
        expect(
          following.length === 1 && named,
          `GET ${read}: ${leaf} moves with the money of ${following.join(', ')} only, of the company's ${users.join(', ')}, and says nothing of whose it is`,
        ).toBe(true)
      }
    }
  })

  it('shows as money only the money: a number moving as the balance with a payment and with a transfer moves with a change of balance alone too', async () => {
    const shown = await shownMoney()
    /** Per read, the numbers a write moved by as much as it moved the balance. */
    const asTheBalance = async (write: Write) => {
      const seen = await around(write)
      const moved = seen.balance! - seen.start!
      expect(moved).not.toBe(0)
      return new Map(
        reads.map((read) => {
          const [before, after] = [seen.before.get(read)!, seen.after.get(read)!]
          const by = (p: string) => (after.get(p) as number) - (before.get(p) as number)
          return [read, [...seen.changed.get(read)!].filter((p) => by(p) === moved)]
        }),
      )
    }
    const [credit, debit] = [
      await asTheBalance(CHARGES.paid!),
      await asTheBalance(TRANSFERS.success!),
    ]
    // Money counted from the records (paid in less sent out) leaves out an opening balance
    // and every adjustment.
    const both = reads.flatMap((read) =>
      credit
        .get(read)!
        .filter((p) => debit.get(read)!.includes(p))
        .map((leaf) => [read, leaf] as const),
    )
    expect(both.length, 'some read shows the balance').toBeGreaterThan(0)
    for (const [read, leaf] of both)
      expect(
        shown.get(read),
        `GET ${read}: ${leaf} moves as the balance with a payment and with a transfer, but not with a change of balance alone`,
      ).toContain(leaf)
  })

  it.each([
    ['a charge left pending', CHARGES.pending!],
    ['a transfer left failed', TRANSFERS.failed!],
  ])(
    'a read showing %s still shows it a year later: no read is of a window of time',
    async (what, write) => {
      const showing = [...(await around(write)).changed].filter(([, leaves]) => leaves.size > 0)
      expect(showing.length).toBeGreaterThan(0)
      // Made, then a year passes (a pending charge expires meanwhile: it is still a charge).
      const aYearAfter = (made: () => Promise<unknown>) =>
        around(
          Object.assign(
            async () => {
              await made()
              await sb.admin('POST', '/clock/advance', { seconds: 366 * 86400 })
            },
            { prepare: write.prepare },
          ),
        )
      const [withIt, without] = [await aYearAfter(write), await aYearAfter(async () => {})]
      for (const [read] of showing)
        expect(
          changed(without.after.get(read)!, withIt.after.get(read)!).size,
          `GET ${read} shows ${what}, but not a year later`,
        ).toBeGreaterThan(0)
    },
  )

  it.each([
    ['a charge left pending', CHARGES.pending!],
    ['a transfer left failed', TRANSFERS.failed!],
  ])(
    'a read showing %s still moves with one more past the longest page: no count stops at a page',
    async (what, write) => {
      expect(longestPage).toBeGreaterThanOrEqual(100)
      // Neither moves money: whatever a read shows of them is the records.
      const first = await around(write)
      const showing = reads.filter((r) => first.changed.get(r)!.size > 0)
      expect(showing.length).toBeGreaterThan(0)
      for (let made = 1; made < longestPage; made += 50)
        await Promise.all(Array.from({ length: Math.min(50, longestPage - made) }, write))
      const before = await readAll()
      await write()
      const after = await readAll()
      // A list with a page after this one shows a page of them (oldest first, it stays put).
      const paged = (read: string) =>
        ![undefined, null].includes(before.get(read)!.get('next_cursor') as null)
      for (const read of showing.filter((r) => !paged(r)))
        expect(
          changed(before.get(read)!, after.get(read)!).size,
          `GET ${read} shows ${what}, but not one more past ${longestPage}`,
        ).toBeGreaterThan(0)
    },
  )
})
