// A store that cannot write (a full disk): writes answer 503 with Retry-After, health says
// degraded and why, the log says so once, reads go on, and it all recovers by itself once there
// is room again, with every answered write kept.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLog } from '../../src/log.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { AUTH, request, testConfig, type Reply } from '../harness.js'
import { emptyWal, mountable, onSmallDisk } from './tmpfs.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-full-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function start(database: string) {
  const lines: string[] = []
  const sb = await startSandbox(testConfig({ database }), {
    log: createLog('info', (l) => lines.push(l)),
  })
  return { sb, lines }
}

const charge = (sb: RunningSandbox, amount = 1000) =>
  request(sb.url, 'POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json: { amount } })

/** Charges until one is refused; the answers, the last one refused. */
async function chargeUntilRefused(sb: RunningSandbox, fill?: () => void): Promise<Reply[]> {
  const replies: Reply[] = []
  for (let i = 0; i < 5000; i++) {
    fill?.()
    const r = await charge(sb, 1000 + i)
    replies.push(r)
    if (r.status !== 200) return replies
  }
  throw new Error('no write was refused')
}

const chargeCount = (sb: RunningSandbox) =>
  sb.sandbox.store.db.prepare('SELECT count(*) FROM charges').pluck().get() as number

/** The lines that say the store stopped or started writing again. */
const outage = (lines: string[]) =>
  lines.filter((l) => /the store (cannot write|writes again)/.test(l))

/**
 * Each change of state is logged once: never the same line twice in a row. On a full disk no write
 * finds room until room is made: one outage. At a page limit, a write that needs no new page (a
 * readiness row rewritten in place) may succeed meanwhile, and the store says it writes again.
 */
function expectLoggedOncePerChange(lines: string[], full: boolean) {
  const said = outage(lines).map((l) => (l.includes('cannot write') ? 'stopped' : 'again'))
  expect(said[0], lines.join('\n')).toBe('stopped')
  for (let i = 1; i < said.length; i++) expect(said[i], lines.join('\n')).not.toBe(said[i - 1])
  if (full)
    expect(
      said.filter((s) => s === 'stopped'),
      lines.join('\n'),
    ).toHaveLength(1)
}

/** `full`: no write can find room (a full disk), rather than a charge's pages alone (a page limit). */
async function expectRefusedThenRecovered(
  sb: RunningSandbox,
  lines: string[],
  refused: Reply[],
  makeRoom: () => void,
  full: boolean,
) {
  const last = refused.at(-1)!
  expect(last.status).toBe(503)
  expect(last.text).toBe('{"detail":"Service temporarily unavailable"}')
  expect(last.headers.get('retry-after')).toBe('5')
  const answered = refused
    .filter((r) => r.status === 200)
    .map((r) => r.body.transaction_id as string)

  // Still full: writes refused alike (of any kind, on a full disk), reads answered, health degraded, one log line.
  for (let i = 0; i < 5; i++) expect((await charge(sb)).status).toBe(503)
  if (full) {
    const transfer = await request(sb.url, 'POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 1, pix_key: 'a@b.com', pix_type: 'EMAIL' },
    })
    expect([transfer.status, transfer.text]).toEqual([
      503,
      '{"detail":"Service temporarily unavailable"}',
    ])
    const tenant = await request(sb.url, 'POST', '/_sandbox/companies', {
      auth: `Bearer ${sb.adminToken}`,
      json: { name: 'Full' },
    })
    expect([tenant.status, tenant.headers.get('retry-after')]).toEqual([503, '5'])
  }
  expect((await request(sb.url, 'GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(
    200,
  )
  // Health says what the log last said: degraded, and why, while the store cannot write. At a
  // page limit a write needing no new page may succeed meanwhile (the readiness recorder's, after
  // the calls above, at its own time): health is then ok, as the log says.
  let health: Reply
  let said: string[]
  do {
    said = outage(lines)
    health = await request(sb.url, 'GET', '/_sandbox/health')
  } while (outage(lines).length !== said.length)
  const stopped = said.at(-1)!.includes('the store cannot write')
  if (full) expect(stopped, lines.join('\n')).toBe(true)
  expect(health.status).toBe(200)
  expect(health.body.status).toBe(stopped ? 'degraded' : 'ok')
  if (stopped)
    expect(health.body.reason).toMatch(/^the store cannot write since \S+: SQLITE_FULL: /)
  expectLoggedOncePerChange(lines, full)
  expect(lines.filter((l) => l.includes('unexpected failure'))).toEqual([])

  makeRoom()
  const after = await charge(sb, 777)
  expect(after.status).toBe(200)
  expect((await request(sb.url, 'GET', '/_sandbox/health')).body).not.toHaveProperty('reason')
  expect((await request(sb.url, 'GET', '/_sandbox/health')).body.status).toBe('ok')
  expectLoggedOncePerChange(lines, full)
  expect(outage(lines).at(-1)).toContain('the store writes again')
  for (const id of [...answered, after.body.transaction_id])
    expect(sb.sandbox.store.charges.byId(id), id).toBeDefined()
  return answered.length
}

describe('a store that cannot write', () => {
  it('answers writes 503 with Retry-After, says degraded, logs once, and recovers (a database at its page limit)', async () => {
    const { sb, lines } = await start(join(dir, 'limited.db'))
    try {
      const before = chargeCount(sb)
      const db = sb.sandbox.store.db
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`)
      const refused = await chargeUntilRefused(sb)
      const kept = await expectRefusedThenRecovered(
        sb,
        lines,
        refused,
        () => void db.pragma('max_page_count = 1073741823'),
        false,
      )
      expect(chargeCount(sb)).toBe(before + kept + 1)
    } finally {
      await sb.close()
    }
  })

  it.skipIf(!mountable)(
    'answers writes 503 on a full file system and recovers once space is freed (tmpfs)',
    async () => {
      await onSmallDisk(dir, async (disk) => {
        const { sb, lines } = await start(join(disk.dir, 'sandbox.db'))
        try {
          // Fill what is left, then write until a commit finds no room: the first one, as the
          // WAL must grow.
          await emptyWal(sb.sandbox.store.db)
          const refused = await chargeUntilRefused(sb, disk.fill)
          expect(refused.map((r) => r.status)).toEqual([503])
          await expectRefusedThenRecovered(sb, lines, refused, disk.makeRoom, true)
        } finally {
          await sb.close()
        }
      })
    },
  )
})
