// One tenant's contract calls never read other tenants' rows (issue 35: another company's 80,000
// queued outcomes and faults made every tenant's transfers ten times slower). With another
// company at its queue limits and the admin's global rows queued, every statement a transfer, a
// charge and a company read runs finds its rows through an index: SQLite's plan for it scans no
// table (EXPLAIN QUERY PLAN), so its cost does not grow with what other companies hold. What the
// store-wide timings look like is in docs/PERFORMANCE.md ("One tenant beside many").
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_QUEUED } from '../../src/operations/queues.js'
import { subscribe } from '../../src/operations/webhooks.js'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'

interface Ran {
  source: string
  args: unknown[]
}

/** Records every statement better-sqlite3 runs in this process while `on` is set. */
function recordStatements() {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
    string,
    (...a: unknown[]) => unknown
  >
  const ran: Ran[] = []
  const originals = new Map<string, (...a: unknown[]) => unknown>()
  let on = false
  for (const m of ['get', 'all', 'run', 'iterate']) {
    const original = proto[m]!
    originals.set(m, original)
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      if (on) ran.push({ source: this.source, args })
      return original.apply(this, args)
    }
  }
  return {
    async during(work: () => Promise<unknown>): Promise<Ran[]> {
      ran.length = 0
      on = true
      try {
        await work()
      } finally {
        on = false
      }
      return [...ran]
    },
    restore: () => originals.forEach((f, m) => (proto[m] = f)),
  }
}

let sb: TestSandbox
let recorder: ReturnType<typeof recordStatements>
beforeAll(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('vizinha', { balance: 100_000 })] })
  const { store, clock } = sb.sandbox
  // The neighbour at its limits (queues and webhook subscriptions), the admin with global rows
  // that match nobody's transfers, and one row of the measured company's own, so that every
  // lookup has something to look at.
  store.tx(() => {
    for (let i = 0; i < MAX_QUEUED; i++) {
      for (const companyId of ['vizinha', null]) {
        store.outcomes.add({
          companyId,
          outcome: { status: 'failed' },
          match: { amount: 77 },
          remaining: 5,
          createdAt: clock.now(),
        })
        if (companyId)
          store.faults.add({
            companyId,
            operation: 'transfer',
            status: 503,
            delayMs: 0,
            remaining: 5,
            createdAt: clock.now(),
            retryAfter: null,
            after: false,
            drop: false,
          })
      }
    }
    for (let i = 0; i < 20; i++)
      subscribe(sb.sandbox, { url: `http://127.0.0.1:9/hooks/${i}`, companyId: 'vizinha' })
    store.outcomes.add({
      companyId: 'loja-exemplo',
      outcome: { status: 'failed' },
      match: { amount: 78 },
      remaining: 5,
      createdAt: clock.now(),
    })
    store.faults.add({
      companyId: 'loja-exemplo',
      operation: 'charge',
      status: null,
      delayMs: 1,
      remaining: 100,
      createdAt: clock.now(),
      retryAfter: null,
      after: false,
      drop: false,
    })
  })
  recorder = recordStatements()
})
afterAll(async () => {
  recorder.restore()
  await sb.close()
})

/** SQLite's plan for a statement as it ran: each table it scans rather than searches. */
const scans = (r: Ran): string[] => {
  if (!/^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(r.source)) return []
  const plan = sb.sandbox.store.db
    .prepare(`EXPLAIN QUERY PLAN ${r.source}`)
    .all(...(r.args as [])) as { detail: string }[]
  return plan.map((p) => p.detail).filter((d) => /^SCAN (?!CONSTANT ROW|\(subquery|q\b)/.test(d))
}

describe('a contract call beside another company at its queue limits', () => {
  it.each([
    [
      'a transfer',
      'POST',
      '/api/v1/hub/transactions/out',
      { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    ],
    ['a charge', 'POST', '/api/v1/hub/transactions/in', { amount: 100 }],
    ['a company read', 'GET', '/api/v1/user/company', undefined],
  ] as const)('%s reads only through indexes', async (_, method, path, json) => {
    const ran = await recorder.during(async () => {
      expect((await sb.request(method, path, { auth: AUTH.main, json })).status).toBe(200)
    })
    expect(ran.length).toBeGreaterThan(0)
    expect(
      ran.flatMap((r) => scans(r).map((s) => `${s}: ${r.source.replace(/\s+/g, ' ').trim()}`)),
    ).toEqual([])
  })

  it("takes its own and the admin's rows, never the neighbour's", async () => {
    const transfer = (amount: number) =>
      sb.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      })
    expect((await transfer(78)).body.status).toBe('failed')
    expect((await transfer(77)).body.status).toBe('failed')
    expect((await transfer(79)).body.status).toBe('success')
    expect(sb.sandbox.store.outcomes.count('vizinha')).toBe(MAX_QUEUED)
    expect(sb.sandbox.store.faults.count('vizinha')).toBe(MAX_QUEUED)
  })
})

describe('paying a reused code beside another company that reused it many times', () => {
  // A published example code, as test suites reuse one: the neighbour's 300 pending charges carry it.
  const STATIC =
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'
  const reuse = (client: string, amount: number) =>
    sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: basic(client, `${client}-secret`),
      json: { amount, payload: STATIC },
    })

  it("seeks the paying company's own charges by code and company, reading none of the neighbour's", async () => {
    for (let i = 0; i < 300; i++) expect((await reuse('vizinha', 100 + i)).status).toBe(200)
    const mine = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 50, payload: STATIC },
    })
    let paid: { status: number; body: { transaction_id?: string } } | undefined
    const ran = await recorder.during(async () => {
      paid = await sb.request('POST', '/_sandbox/pay', {
        auth: AUTH.main,
        json: { qr_code: STATIC },
      })
    })
    expect(paid).toMatchObject({ status: 200, body: { transaction_id: mine.body.transaction_id } })
    const byCode = ran.filter((r) => /WHERE qr_code = \?/.test(r.source))
    expect(byCode).toHaveLength(1)
    const plan = (
      sb.sandbox.store.db
        .prepare(`EXPLAIN QUERY PLAN ${byCode[0]!.source}`)
        .all(...(byCode[0]!.args as [])) as { detail: string }[]
    ).map((p) => p.detail)
    expect(plan).toEqual([
      'SEARCH charges USING INDEX charges_reused_code (qr_code=? AND company_id=?)',
    ])
  })
})
