// Fills a store with history, directly through SQLite, so the benchmark can compare a store that
// has served a long test run with a fresh one: companies of their own (each with a user and a
// credential, as a tenant has), charges spread over them in final states with their events, and
// one of them holding full queues of transfer outcomes and injected faults (the most a company
// may queue). None of it belongs to the benchmark's own client, whose calls must not pay for it.
import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'

export interface History {
  companies: number
  charges: number
  /** Queued outcomes, and as many faults, of one of those companies. */
  queued: number
}

/** What a long test run leaves behind (issue 34): 10,000 tenants, 150,000 charges, full queues. */
export const HISTORY: History = { companies: 10_000, charges: 150_000, queued: 1_000 }

/** The company whose queues are full. */
export const QUEUED_COMPANY = 'hist-co-00000'

const OPERATIONS = ['charge', 'transfer', 'company'] as const

/** Seeds `path` (a store the sandbox has already created); returns the milliseconds it took. */
export function seedHistory(path: string, h: History = HISTORY): number {
  const started = performance.now()
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const now = Date.UTC(2026, 0, 1) * 1000
  const pad = (n: number, w: number) => n.toString(36).padStart(w, '0')
  const companyId = (i: number) => `hist-co-${pad(i, 5)}`
  const userId = (i: number) => `hist-user-${pad(i, 5)}`
  const company = db.prepare(
    "INSERT INTO companies (id, name, city, api_active, created_at, updated_at) VALUES (?, ?, 'Sao Paulo', 1, ?, ?)",
  )
  const user = db.prepare(
    "INSERT INTO users (id, company_id, name, permissions, balance, created_at) VALUES (?, ?, 'Historico', 'charge,transfer', 0, ?)",
  )
  const credential = db.prepare(
    "INSERT INTO credentials (client_id, user_id, secret_hash, environment, revoked, created_at) VALUES (?, ?, ?, 'sandbox', 0, ?)",
  )
  const charge =
    db.prepare(`INSERT INTO charges (id, company_id, user_id, amount, description, status, qr_code, qr_code_name, location_id,
    created_at, expires_at, due_at, cancelled_at, cancel_reason) VALUES (?, ?, ?, ?, NULL, 'cancelled', ?, ?, ?, ?, ?, ?, ?, 'expired')`)
  const event = db.prepare(
    "INSERT INTO events (id, type, at, company_id, data) VALUES (?, 'charge.created', ?, ?, ?)",
  )
  const outcome = db.prepare(
    "INSERT INTO outcomes (company_id, status, message, remaining, created_at) VALUES (?, 'failed', 'Queued by the benchmark', 1, ?)",
  )
  const fault = db.prepare(
    'INSERT INTO faults (company_id, operation, status, delay_ms, remaining, created_at) VALUES (?, ?, 500, 0, 1, ?)',
  )
  const code =
    '00020101021226730014br.gov.bcb.pix2551localhost:8080/pix/qr/v2/history0000000000000000000520400005303986540510.005802BR5912Historico SA6009Sao Paulo62070503***6304ABCD'
  const hash = randomBytes(32)
  db.transaction(() => {
    for (let i = 0; i < h.companies; i++) {
      company.run(companyId(i), `Historico ${i} SA`, now, now)
      user.run(userId(i), companyId(i), now)
      credential.run(`hist-client-${pad(i, 5)}`, userId(i), hash, now)
    }
  })()
  const BATCH = 50_000
  for (let done = 0; done < h.charges; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, h.charges); i++) {
        const t = now + i * 1000
        const owner = i % h.companies
        const id = `hist${pad(i, 28)}`
        const amount = 100 + (i % 10_000)
        charge.run(
          id,
          companyId(owner),
          userId(owner),
          amount,
          code,
          `Historico ${owner} SA #h${i}`,
          `h${pad(i, 24)}`,
          t,
          t + 3.6e9,
          t + 3.6e9,
          t + 3.6e9,
        )
        event.run(
          `evt_hist${pad(i, 20)}`,
          t,
          companyId(owner),
          JSON.stringify({ transaction_id: id, amount }),
        )
      }
    })()
  }
  db.transaction(() => {
    for (let i = 0; i < h.queued; i++) {
      outcome.run(QUEUED_COMPANY, now)
      fault.run(QUEUED_COMPANY, OPERATIONS[i % OPERATIONS.length], now)
    }
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return performance.now() - started
}
