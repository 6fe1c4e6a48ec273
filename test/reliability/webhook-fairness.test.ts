// Webhook fairness under load (#14 item 5): ten companies whose every subscription goes to a
// receiver that never answers, with thousands of deliveries due and retried, do not delay another
// company's charge.paid, through at least one retry round of theirs (15 s delivery limit, then
// the schedule's first retry).
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startReceiver, startSilentReceiver } from '../webhooks/receiver.js'
import { admin, call, startServer, tempDir } from './server.js'

const tmp = tempDir('pix-webhook-fairness-')
afterAll(() => tmp.remove())

const NOISY_COMPANIES = 10
const SUBSCRIPTIONS = 20
const CHARGES_EACH = 10

it("a silent receiver of one company never delays another company's delivery by a second", async () => {
  const server = await startServer(join(tmp.dir, 'fairness.db'))
  const silent = await startSilentReceiver()
  const rx = await startReceiver()
  try {
    const tenant = async () => {
      const t = (await admin(server.url, 'POST', '/companies', { name: 'Loja' })).body
      return `Basic ${t.token}`
    }
    const payCharge = async (auth: string) => {
      const c = (
        await call(server.url, 'POST', '/api/v1/hub/transactions/in', { amount: 1000 }, auth)
      ).body
      expect((await admin(server.url, 'POST', `/charges/${c.transaction_id}/pay`)).status).toBe(200)
    }
    for (let i = 0; i < NOISY_COMPANIES; i++) {
      const auth = await tenant()
      for (let s = 0; s < SUBSCRIPTIONS; s++)
        expect(
          (
            await call(
              server.url,
              'POST',
              '/_sandbox/webhooks',
              { url: `${silent.url}/${i}/${s}` },
              auth,
            )
          ).status,
        ).toBe(201)
      for (let c = 0; c < CHARGES_EACH; c++) await payCharge(auth)
    }
    const victim = await tenant()
    await call(server.url, 'POST', '/_sandbox/webhooks', { url: rx.url }, victim)

    const latencies: number[] = []
    const until = Date.now() + 20_000 // past the silent sends' 15 s limit and their first retry
    while (Date.now() < until) {
      const before = rx.received.length
      const started = Date.now()
      await payCharge(victim)
      const [m] = (await rx.waitFor(before + 1, 10_000)).slice(before)
      latencies.push(m!.at - started)
      await new Promise((r) => setTimeout(r, 500))
    }
    const total = NOISY_COMPANIES * SUBSCRIPTIONS * CHARGES_EACH
    console.log(
      `webhook fairness: ${total} deliveries to silent receivers (${silent.count()} requests sent to them in ~20 s); another company's ${latencies.length} deliveries: max ${Math.max(...latencies)} ms, median ${latencies.sort((a, b) => a - b)[latencies.length >> 1]} ms`,
    )
    expect(Math.max(...latencies)).toBeLessThan(1000)
    expect(silent.count()).toBeGreaterThan(NOISY_COMPANIES * 20) // the 15 s limit freed their slots and the queue moved on under the test
  } finally {
    await silent.close()
    await rx.close()
    await server.stop()
  }
})
