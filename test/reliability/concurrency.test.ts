// Concurrency: thousands of concurrent transfers and payments against a few users. No balance is
// ever negative, every balance equals the sum of its ledger, no id repeats, no charge is
// credited twice, and the money adds up. In one process, where use cases are synchronous and never
// interleave: this proves the checks and the group commit under load, not the SQL guards, which
// test/store/guards.test.ts calls directly. On a file and in memory: no answered write may be lost
// on either.
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { basic, startTestSandbox, tenantDoc } from '../harness.js'
import { tempDir } from './server.js'

const tmp = tempDir('pix-concurrency-')
afterAll(() => tmp.remove())

describe('thousands of concurrent transfers and payments', () => {
  it.each(['file', 'memory'])(
    'never overdraws and keeps the ledger exact (%s store)',
    async (kind) => {
      const sb = await startTestSandbox({
        database: kind === 'file' ? join(tmp.dir, 'c.db') : ':memory:',
      })
      try {
        const users = ['alpha', 'beta', 'gamma']
        sb.apply({ companies: users.map((u, i) => tenantDoc(u, { balance: (i + 1) * 200_000 })) })
        const auth = (u: string) => basic(u, `${u}-secret`)
        const opening = new Map(
          users.map((u) => [u, sb.sandbox.store.ledger.balance(`${u}-user`)!]),
        )

        // Charges to pay, created first (sequentially cheap), then paid twice each, concurrently.
        const charges: { id: string; user: string; amount: number }[] = []
        for (let i = 0; i < 600; i++) {
          const user = users[i % 3]!
          const amount = 100 + i
          const r = await sb.request('POST', '/api/v1/hub/transactions/in', {
            auth: auth(user),
            json: { amount },
          })
          charges.push({ id: r.body.transaction_id, user, amount })
        }

        const transfers = Array.from({ length: 3000 }, (_, i) => ({
          user: users[i % 3]!,
          amount: 1 + ((i * 7919) % 5000),
        }))
        const tasks: (() => Promise<{
          kind: string
          user: string
          amount: number
          status: number
          body: any
        }>)[] = [
          ...transfers.map((t) => async () => {
            const r = await sb.request('POST', '/api/v1/hub/transactions/out', {
              auth: auth(t.user),
              json: { amount: t.amount, pix_key: '52998224725', pix_type: 'CPF' },
            })
            return { kind: 'transfer', ...t, status: r.status, body: r.body }
          }),
          ...charges.flatMap((c) =>
            [0, 1].map(() => async () => {
              const r = await sb.admin('POST', `/charges/${c.id}/pay`)
              return { kind: 'pay', user: c.user, amount: c.amount, status: r.status, body: r.body }
            }),
          ),
        ]
        // Shuffle deterministically, then run in waves of 400 concurrent requests.
        const shuffled = tasks
          .map((t, i) => ({ t, key: (i * 2654435761) % 4099 }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.t)
        const results: Awaited<ReturnType<(typeof tasks)[number]>>[] = []
        for (let i = 0; i < shuffled.length; i += 400)
          results.push(...(await Promise.all(shuffled.slice(i, i + 400).map((t) => t()))))

        expect(results.every((r) => r.status === 200 || r.status === 422 || r.status === 409)).toBe(
          true,
        )
        const paid = results.filter((r) => r.kind === 'pay' && r.status === 200)
        expect(paid).toHaveLength(600)
        expect(results.filter((r) => r.kind === 'pay' && r.status === 409)).toHaveLength(600)
        const sent = results.filter((r) => r.kind === 'transfer' && r.status === 200)
        expect(new Set(sent.map((r) => r.body.transaction_id)).size).toBe(sent.length)
        expect(sent.length).toBeGreaterThan(100)

        const db = sb.sandbox.store.db
        for (const u of users) {
          const userId = `${u}-user`
          const balance = sb.sandbox.store.ledger.balance(userId)!
          expect(balance).toBeGreaterThanOrEqual(0)
          expect(sb.sandbox.store.ledger.sumOfEntries(userId)).toBe(balance)
          const credited = paid.filter((r) => r.user === u).reduce((a, r) => a + r.amount, 0)
          const debited = sent
            .filter((r) => r.user === u && r.body.status !== 'failed')
            .reduce((a, r) => a + r.amount, 0)
          expect(balance).toBe(opening.get(u)! + credited - debited)
        }
        expect(
          db.prepare('SELECT min(balance_after) FROM ledger_entries').pluck().get(),
        ).toBeGreaterThanOrEqual(0)
        expect(
          db
            .prepare(
              "SELECT count(*) FROM (SELECT reference FROM ledger_entries WHERE kind = 'charge_paid' GROUP BY reference HAVING count(*) > 1)",
            )
            .pluck()
            .get(),
        ).toBe(0)
        expect(
          db.prepare('SELECT count(*) - count(DISTINCT id) FROM transfers').pluck().get(),
        ).toBe(0)
        // Every transfer answered 200 is kept, and only those.
        expect(db.prepare('SELECT count(*) FROM transfers').pluck().get()).toBe(sent.length)
      } finally {
        await sb.close()
      }
    },
  )
})
