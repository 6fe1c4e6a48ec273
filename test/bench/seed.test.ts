// The benchmark's history store: the sandbox must start on it and hold what the history phase
// says it holds (companies with credentials, charges with their events, one company's full
// queues), and none of it may reach the benchmark's own client, or "history / fresh store" would
// measure the wrong thing.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVER_ARGS, startProcess, type Proc } from '../../bench/processes.js'
import { QUEUED_COMPANY, seedHistory } from '../../bench/seed.js'

const ADMIN = 'seed-test-admin-token-0123456789'
const AUTH = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`
const HISTORY = { companies: 40, charges: 400, queued: 30 }

describe('bench/seed.ts', () => {
  let dir: string
  let database: string
  let sandbox: Proc
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-seed-'))
    database = join(dir, 'history.db')
    const env = { DATABASE: database, LOG_LEVEL: 'warn', SANDBOX_ADMIN_TOKEN: ADMIN }
    await (await startProcess(SERVER_ARGS, env, '/_sandbox/health')).stop()
    seedHistory(database, HISTORY)
    sandbox = await startProcess(SERVER_ARGS, env, '/_sandbox/health')
  }, 60_000)
  afterAll(async () => {
    await sandbox?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it("holds the companies, charges with their events, and one company's full queues", () => {
    const db = new Database(database, { readonly: true })
    try {
      const count = (sql: string, ...args: unknown[]) =>
        db
          .prepare(sql)
          .pluck()
          .get(...args) as number
      expect(count("SELECT count(*) FROM credentials WHERE client_id LIKE 'hist-client-%'")).toBe(
        HISTORY.companies,
      )
      expect(count("SELECT count(*) FROM charges WHERE company_id LIKE 'hist-co-%'")).toBe(
        HISTORY.charges,
      )
      expect(count("SELECT count(*) FROM events WHERE company_id LIKE 'hist-co-%'")).toBe(
        HISTORY.charges,
      )
      expect(
        count("SELECT count(DISTINCT company_id) FROM charges WHERE company_id LIKE 'hist-co-%'"),
      ).toBe(HISTORY.companies)
      expect(count('SELECT count(*) FROM outcomes WHERE company_id = ?', QUEUED_COMPANY)).toBe(
        HISTORY.queued,
      )
      expect(count('SELECT count(*) FROM faults WHERE company_id = ?', QUEUED_COMPANY)).toBe(
        HISTORY.queued,
      )
    } finally {
      db.close()
    }
  })

  it("serves the queued company's faults through the control plane", async () => {
    const res = await fetch(
      `${sandbox.url}/_sandbox/faults?company_id=${QUEUED_COMPANY}&limit=100`,
      { headers: { authorization: `Bearer ${ADMIN}` } },
    )
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(HISTORY.queued)
  })

  it("leaves the benchmark's own calls untouched by the other company's faults and outcomes", async () => {
    const call = (path: string, body?: string) =>
      fetch(sandbox.url + path, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body,
      })
    const charge = await call(
      '/api/v1/hub/transactions/in',
      '{"amount":1000,"description":"bench"}',
    )
    expect(charge.status).toBe(200)
    const transfer = await call(
      '/api/v1/hub/transactions/out',
      '{"amount":1,"pix_key":"maria@example.com","pix_type":"EMAIL"}',
    )
    expect(transfer.status).toBe(200)
    // The queued outcomes say "failed": the bench's transfers take the scenario's own outcome.
    expect(((await transfer.json()) as { status: string }).status).toBe('success')
    expect((await call('/api/v1/user/company')).status).toBe(200)
  })
})
