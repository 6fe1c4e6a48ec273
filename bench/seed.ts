// Fills a store with a million charges and a million transfers, directly through SQLite, so the
// benchmark can compare a busy store with an empty one. The rows belong to a company of their
// own, in final states, so the benchmark's own user and its ledger are untouched.
import Database from 'better-sqlite3'

export function seedHistory(path: string, charges: number, transfers: number): number {
  const started = performance.now()
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const now = Date.UTC(2026, 0, 1) * 1000
  db.prepare("INSERT OR IGNORE INTO companies (id, name, city, api_active, created_at, updated_at) VALUES ('history', 'Historico SA', 'Sao Paulo', 1, ?, ?)").run(now, now)
  db.prepare("INSERT OR IGNORE INTO users (id, company_id, name, permissions, balance, created_at) VALUES ('history-user', 'history', 'Historico', 'charge,transfer', 0, ?)").run(now)
  const charge = db.prepare(`INSERT INTO charges (id, company_id, user_id, amount, description, status, qr_code, qr_code_name, location_id,
    created_at, expires_at, due_at, cancelled_at, cancel_reason) VALUES (?, 'history', 'history-user', ?, NULL, 'cancelled', ?, ?, ?, ?, ?, ?, ?, 'expired')`)
  const transfer = db.prepare(`INSERT INTO transfers (id, company_id, user_id, amount, description, pix_key, pix_type, status, message, created_at)
    VALUES (?, 'history', 'history-user', ?, NULL, 'maria@example.com', 'EMAIL', 'failed', 'Transfer failed', ?)`)
  const code = '00020101021226730014br.gov.bcb.pix2551localhost:8080/pix/qr/v2/history0000000000000000000520400005303986540510.005802BR5912Historico SA6009Sao Paulo62070503***6304ABCD'
  const pad = (n: number, w: number) => n.toString(36).padStart(w, '0')
  const BATCH = 50_000
  for (let done = 0; done < charges; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, charges); i++) {
        const t = now + i * 1000
        charge.run(`hist${pad(i, 28)}`, 100 + (i % 10_000), code, `Historico SA #h${i}`, `h${pad(i, 24)}`, t, t + 3.6e9, t + 3.6e9, t + 3.6e9)
      }
    })()
  }
  for (let done = 0; done < transfers; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, transfers); i++) {
        transfer.run(`E00000000202601010000h${pad(i, 10)}`, 100 + (i % 10_000), now + i * 1000)
      }
    })()
  }
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return performance.now() - started
}
