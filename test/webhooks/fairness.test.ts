// One company's slow or silent receivers never hold back another company's webhooks: no
// head-of-line blocking in the worker, and a bound on sends in flight per subscription and per
// company (src/webhooks/limits.ts).
import { afterEach, beforeEach, expect, it } from 'vitest'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'
import { subscribe as subscribeOp } from '../../src/operations/webhooks.js'
import {
  MAX_IN_FLIGHT_PER_COMPANY,
  MAX_IN_FLIGHT_PER_SUBSCRIPTION,
  MAX_SUBSCRIPTIONS,
} from '../../src/webhooks/limits.js'
import { startReceiver, startSilentReceiver, type Receiver } from './receiver.js'
import { recorded } from './settle.js'

const OTHER = basic('other', 'other-secret')
let sb: TestSandbox
let rx: Receiver
let silent: Awaited<ReturnType<typeof startSilentReceiver>>
beforeEach(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('other')] })
  rx = await startReceiver()
  silent = await startSilentReceiver()
})
afterEach(async () => {
  await silent.close()
  await sb.close()
  await rx.close()
})

const subscribe = async (auth: string, url: string) =>
  (await sb.request('POST', '/_sandbox/webhooks', { auth, json: { url } })).body
const payCharge = async (auth: string) => {
  const c = (
    await sb.request('POST', '/api/v1/hub/transactions/in', { auth, json: { amount: 1000 } })
  ).body
  return sb.admin('POST', `/charges/${c.transaction_id}/pay`)
}
/**
 * What "not held" means in wall-clock time: holding would cost the 15 s delivery timeout or a
 * 60 s chaos delay, while a loaded 2-core machine answers within seconds (5 s was the bound; a
 * load average of 10 or more may pass it). Where the silent sends hold, that none of them has
 * ended yet (their count) is the proof that needs no clock.
 */
const NOT_HELD_MS = 10_000

/** Pays a charge of the other company and says how long its charge.paid took to arrive. */
const otherDeliveryMs = async () => {
  const before = rx.received.length
  const started = Date.now()
  await payCharge(OTHER)
  const [m] = (await rx.waitFor(before + 1)).slice(before)
  expect(m!.json).toMatchObject({ type: 'charge.paid', data: { company_id: 'other' } })
  return m!.at - started
}

it('a company with every subscription silent and hundreds of deliveries due does not delay another company', async () => {
  for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await subscribe(AUTH.main, `${silent.url}/${i}`)
  await subscribe(OTHER, rx.url)
  for (let i = 0; i < 15; i++) await payCharge(AUTH.main) // 300 deliveries due to receivers that never answer
  await silent.waitFor(MAX_IN_FLIGHT_PER_COMPANY)
  expect(await otherDeliveryMs()).toBeLessThan(NOT_HELD_MS)
  // Rounds ran after the other company's event: the silent company still holds only its own slots.
  expect(silent.count()).toBe(MAX_IN_FLIGHT_PER_COMPANY)
  // And virtual time can move: advance does not wait for sends it did not start.
  const started = Date.now()
  expect((await sb.admin('POST', '/clock/advance', { seconds: 1 })).status).toBe(200)
  expect(Date.now() - started).toBeLessThan(NOT_HELD_MS)
})

it('a subscription holds at most its own slots; the rest of its queue waits its turn', async () => {
  await subscribe(AUTH.main, silent.url)
  await subscribe(OTHER, rx.url)
  for (let i = 0; i < 8; i++) await payCharge(AUTH.main)
  await silent.waitFor(MAX_IN_FLIGHT_PER_SUBSCRIPTION)
  expect(await otherDeliveryMs()).toBeLessThan(NOT_HELD_MS)
  expect(silent.count()).toBe(MAX_IN_FLIGHT_PER_SUBSCRIPTION)
})

it("a test message held 60 s by one company's chaos does not hold another company's test", async () => {
  const slow = await subscribe(AUTH.main, rx.url)
  await sb.request('PUT', `/_sandbox/webhooks/${slow.id}/chaos`, {
    auth: AUTH.main,
    json: { delay_ms: 60_000 },
  })
  const mine = await subscribe(OTHER, rx.url)
  const aborted = new AbortController()
  const slowTest = fetch(`${sb.url}/_sandbox/webhooks/${slow.id}/test`, {
    method: 'POST',
    headers: { authorization: AUTH.main },
    signal: aborted.signal,
  }).catch(() => undefined)
  await new Promise((r) => setTimeout(r, 100))
  const started = Date.now()
  const test = await sb.request('POST', `/_sandbox/webhooks/${mine.id}/test`, { auth: OTHER })
  expect(Date.now() - started).toBeLessThan(NOT_HELD_MS)
  expect(test.body).toMatchObject({ event_type: 'webhook.test', status: 'delivered' })
  aborted.abort()
  await slowTest
})

it('advance runs the retries that became due before it answers, but not a send held back by chaos', async () => {
  sb.apply({ settings: { webhook_retry_seconds: [1] } })
  rx.fallback = { status: 500 }
  const held = await subscribe(AUTH.main, `${rx.url}/held`)
  await subscribe(OTHER, `${rx.url}/other`)
  await payCharge(AUTH.main)
  await payCharge(OTHER)
  await rx.waitFor(2)
  // Both 500s recorded, so both retries are due and not in flight when the advance's round runs.
  await recorded(sb, 2)
  rx.fallback = { status: 200 }
  await sb.request('PUT', `/_sandbox/webhooks/${held.id}/chaos`, {
    auth: AUTH.main,
    json: { delay_ms: 60_000 },
  })
  const started = Date.now()
  await sb.admin('POST', '/clock/advance', { seconds: 2 })
  expect(Date.now() - started).toBeLessThan(NOT_HELD_MS)
  expect(rx.received.map((m) => m.path)).toEqual(
    expect.arrayContaining(['/held', '/other', '/other']),
  )
  expect(rx.received).toHaveLength(3)
})

it("a test message goes ahead of its subscription's backlog, in the next slot that frees", async () => {
  rx.fallback = { status: 200, delayMs: 1000 }
  const sub = await subscribe(AUTH.main, rx.url)
  for (let i = 0; i < 20; i++) await payCharge(AUTH.main)
  await rx.waitFor(MAX_IN_FLIGHT_PER_SUBSCRIPTION)
  const before = rx.received.length // the sends in flight, and those done
  const test = await sb.request('POST', `/_sandbox/webhooks/${sub.id}/test`, { auth: AUTH.main })
  expect(test.body).toMatchObject({ event_type: 'webhook.test', status: 'delivered' })
  const position = rx.received.findIndex((m) => m.json.type === 'webhook.test')
  expect(position - before).toBeLessThan(MAX_IN_FLIGHT_PER_SUBSCRIPTION)
  expect(position).toBeLessThan(20) // not after the backlog
})

it('a round looks only at subscriptions with deliveries due, however many other companies subscribe', async () => {
  // 300 subscriptions of fifteen other companies, none with anything to send.
  sb.apply({ companies: Array.from({ length: 15 }, (_, i) => tenantDoc(`idle-${i}`)) })
  for (let i = 0; i < 15; i++)
    for (let k = 0; k < MAX_SUBSCRIPTIONS; k++)
      subscribeStore(`idle-${i}`, `http://127.0.0.1:9/idle/${k}`)
  await subscribe(AUTH.main, rx.url)
  const { webhooks } = sb.sandbox.store
  const dueFor = webhooks.dueFor
  const asked: string[] = []
  webhooks.dueFor = (id, now, limit) => (asked.push(id), dueFor(id, now, limit))
  try {
    await payCharge(AUTH.main)
    await sb.admin('POST', '/clock/advance', { seconds: 1 })
    await recorded(sb, 1)
    expect(rx.received.map((r) => r.json.type)).toEqual(['charge.paid'])
    // Before, each round asked every active subscription: 301 of them, at every send and every tick.
    expect(asked.length).toBeGreaterThan(0)
    expect(new Set(asked).size).toBe(1)
  } finally {
    webhooks.dueFor = dueFor
  }
})

const subscribeStore = (companyId: string, url: string) =>
  subscribeOp(sb.sandbox, { url, companyId })
