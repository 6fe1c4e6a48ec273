// Two promises of docs/WEBHOOKS.md that no other test could break: a receiver gets 15 s to answer, and a
// delivery exists (and is sent) only for an event whose transaction committed (invariant 9).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HANG_MS } from '../hang.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import { startReceiver, type Receiver } from './receiver.js'

let sb: TestSandbox
let rx: Receiver
beforeEach(async () => {
  sb = await startTestSandbox()
  rx = await startReceiver()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await sb.close()
  await rx.close()
})

const charge = async () =>
  (
    await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 1000 },
    })
  ).body.transaction_id as string
const deliveries = async () => (await sb.admin('GET', '/webhooks/deliveries')).body.data

describe('the webhook timeout', () => {
  it('is 15 s: a receiver that does not answer in time fails the attempt with that text', async () => {
    // The sandbox asks for a 15 s timeout; the test lets it run out after 100 ms so as not to wait.
    const asked: number[] = []
    const timeout = AbortSignal.timeout.bind(AbortSignal)
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => (asked.push(ms), timeout(100)))
    rx.fallback = { status: 200, delayMs: 5_000 }
    await sb.admin('POST', '/webhooks', { url: rx.url })
    await sb.admin('POST', `/charges/${await charge()}/pay`)
    await vi.waitFor(async () => expect((await deliveries())[0]?.attempts).toHaveLength(1), {
      timeout: HANG_MS,
      interval: 50,
    })
    const [d] = await deliveries()
    expect(d.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 15 s' })
    expect(asked).toEqual([15_000])
  })
})

describe('deliveries of uncommitted events', () => {
  it('never exist and are never sent: a payment rolled back after queueing its delivery and waking the worker leaves nothing', async () => {
    await sb.admin('POST', '/webhooks', { url: rx.url, events: ['charge.paid'] })
    const [rolledBack, committed] = [await charge(), await charge()]
    const kick = sb.sandbox.onWebhookQueued!
    // The delivery row is written and the worker told, then the use case fails: its transaction
    // is rolled back, and the worker must find nothing to send.
    sb.sandbox.onWebhookQueued = () => {
      kick()
      throw new Error('disk full')
    }
    try {
      expect((await sb.admin('POST', `/charges/${rolledBack}/pay`)).status).toBe(500)
    } finally {
      sb.sandbox.onWebhookQueued = kick
    }
    expect((await sb.admin('POST', `/charges/${committed}/pay`)).status).toBe(200)
    // Deliveries go out in queue order: once the committed one has arrived, an earlier one would have too.
    await rx.waitFor(1)
    expect(sb.sandbox.store.charges.byId(rolledBack)).toMatchObject({
      status: 'pending',
      paidAt: null,
    })
    // Retries, had there been anything to retry, fall due within a minute.
    await sb.admin('POST', '/clock/advance', { seconds: 60 })
    expect(rx.received.map((m) => m.json.data.transaction_id)).toEqual([committed])
    expect((await deliveries()).map((d: { event_type: string }) => d.event_type)).toEqual([
      'charge.paid',
    ])
  })
})
