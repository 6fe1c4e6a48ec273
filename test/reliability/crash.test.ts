// Crash: under sustained load of charges, transfers and payments, SIGKILL the server and start it
// again on the same store. Every request that was answered 200 is there, balances equal the sum
// of their ledger entries, no charge is paid twice, and the server serves at once.
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { admin, call, startServer, tempDir } from './server.js'

const tmp = tempDir('pix-crash-')
afterAll(() => tmp.remove())

describe('kill -9 under load', () => {
  it('keeps every acknowledged write and stays consistent', async () => {
    const database = join(tmp.dir, 'crash.db')
    const first = await startServer(database)
    const base = first.url
    const acked = {
      charges: new Set<string>(),
      paid: new Set<string>(),
      transfers: new Map<string, string>(),
    }
    let stop = false
    const worker = async (n: number) => {
      while (!stop) {
        try {
          if (n % 3 === 0) {
            const r = await call(base, 'POST', '/api/v1/hub/transactions/out', {
              amount: 1 + (n % 7),
              pix_key: 'maria@example.com',
              pix_type: 'EMAIL',
            })
            if (r.status === 200) acked.transfers.set(r.body.transaction_id, r.body.status)
          } else {
            const r = await call(base, 'POST', '/api/v1/hub/transactions/in', { amount: 100 + n })
            if (r.status !== 200) continue
            acked.charges.add(r.body.transaction_id)
            if (n % 3 === 1) {
              const p = await admin(base, 'POST', `/charges/${r.body.transaction_id}/pay`)
              if (p.status === 200) acked.paid.add(r.body.transaction_id)
            }
          }
        } catch {
          // the server died under us: expected
        }
      }
    }
    const workers = Array.from({ length: 24 }, (_, n) => worker(n))
    await new Promise((r) => setTimeout(r, 3000))
    first.child.kill('SIGKILL')
    await new Promise((r) => first.child.once('exit', r))
    stop = true
    await Promise.all(workers)
    expect(acked.charges.size).toBeGreaterThan(100)
    expect(acked.transfers.size).toBeGreaterThan(50)

    const second = await startServer(database)
    try {
      // Serves at once.
      expect(second.startMs).toBeLessThan(3000)
      expect((await call(second.url, 'GET', '/api/v1/user/company')).status).toBe(200)

      const db = new Database(database, { readonly: true })
      const chargeStatus = new Map(
        (
          db.prepare('SELECT id, status FROM charges').all() as { id: string; status: string }[]
        ).map((r) => [r.id, r.status]),
      )
      for (const id of acked.charges) expect(chargeStatus.has(id), `charge ${id}`).toBe(true)
      for (const id of acked.paid) expect(chargeStatus.get(id), `paid ${id}`).toBe('paid')
      const transferStatus = new Map(
        (
          db.prepare('SELECT id, status FROM transfers').all() as { id: string; status: string }[]
        ).map((r) => [r.id, r.status]),
      )
      for (const [id, status] of acked.transfers)
        expect(transferStatus.get(id), `transfer ${id}`).toBe(status)

      const mismatched = db
        .prepare(
          'SELECT u.id FROM users u WHERE u.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger_entries l WHERE l.user_id = u.id)',
        )
        .all()
      expect(mismatched).toEqual([])
      expect(db.prepare('SELECT min(balance) FROM users').pluck().get()).toBeGreaterThanOrEqual(0)
      const doublePaid = db
        .prepare(
          "SELECT reference FROM ledger_entries WHERE kind = 'charge_paid' GROUP BY reference HAVING count(*) > 1",
        )
        .all()
      expect(doublePaid).toEqual([])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      db.close()
    } finally {
      await second.stop()
    }
  })
})
