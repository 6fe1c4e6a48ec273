// The recorder's judgements where time and wording matter, driven directly with a clock of our
// own: a retry counts within 60 s of the failure only, and not across a test's step (a control
// call); one answered before the call it repeats is still seen; Retry-After holds for its
// seconds and its operation only; a 422 for the outcome header is no body error. And
// lenientAmount reads the top level only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lenientAmount, topLevelValue } from '../../src/readiness/amount.js'
import { createReadiness, type RequestSeen } from '../../src/readiness/recorder.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

function recorder() {
  let now = 1000
  const r = createReadiness({
    store: sb.sandbox.store,
    clock: sb.sandbox.clock,
    persistent: false,
    redact: (t) => t,
    nowMs: () => now,
  })
  const call = (o: Partial<RequestSeen>) =>
    r.request({
      method: 'POST',
      path: '/api/v1/hub/transactions/out',
      status: 200,
      companyId: 'loja-exemplo',
      clientId: 'sandbox-client',
      claimed: null,
      contentType: 'application/json',
      jsonType: true,
      accept: 'application/json',
      requestBody: '{"amount": 1000, "pix_key": "a@b.co", "pix_type": "EMAIL"}',
      responseBody: '{"status":"success","transaction_id":"E1","message":"ok"}',
      retryAfter: null,
      errorCode: null,
      dropped: false,
      fault: null,
      effectStatus: o.status ?? 200,
      effectBody: o.responseBody ?? '{"status":"success","transaction_id":"E1","message":"ok"}',
      closedMs: -1,
      held: false,
      at: 0,
      arrivedMs: now,
      ...o,
    })
  /** A receiver of loja-exemplo took transaction `tx`'s transfer.succeeded, sent `latencyMs` before now. */
  const settled = (tx: string, latencyMs: number) =>
    r.attempt({
      companyId: 'loja-exemplo',
      subscriptionId: 'wh_1',
      url: 'http://127.0.0.1:3000/hooks',
      eventType: 'transfer.succeeded',
      deliveryId: `msg_${tx}`,
      statusCode: 204,
      latencyMs,
      stalledMs: 0,
      timedOut: false,
      badSignature: false,
      duplicate: false,
      retried: false,
      acknowledgedBefore: false,
      signed: true,
      body: JSON.stringify({ type: 'transfer.succeeded', data: { transaction_id: tx } }),
    })
  const found = (id: string) =>
    r.report('loja-exemplo').findings.find((f) => f.id === id)?.count ?? 0
  const example = (id: string) =>
    r.report('loja-exemplo').findings.find((f) => f.id === id)?.example
  return { r, call, settled, found, example, at: (ms: number) => (now = ms) }
}

const LOST_AFTER_WRITE = {
  status: 500,
  responseBody: '{"detail":"Internal server error"}',
  fault: 'after' as const,
  effectStatus: 200,
  effectBody: '{"status":"success","transaction_id":"E1","message":"ok"}',
}

describe('the recorder', () => {
  it('counts a retry within 60 s of a 5xx, and not after', () => {
    const { call, found, at } = recorder()
    call({ status: 500, responseBody: '{"detail":"Internal server error"}' })
    at(1000 + 59_000)
    call({})
    expect(found('retry_after_server_error')).toBe(1)
    at(1000 + 59_000 + 61_000)
    call({})
    expect(found('retry_after_server_error')).toBe(1)
  })

  it('counts a call within Retry-After of a 503, and not one after it', () => {
    const { call, found, at } = recorder()
    call({
      path: '/api/v1/hub/transactions/in',
      status: 503,
      retryAfter: '2',
      responseBody: '{"detail":"Service temporarily unavailable"}',
    })
    at(2999)
    call({ path: '/api/v1/hub/transactions/in', arrivedMs: 2999, responseBody: '{}' })
    expect(found('ignored_retry_after')).toBe(1)
    at(3001)
    call({ path: '/api/v1/hub/transactions/in', arrivedMs: 3001, responseBody: '{}' })
    expect(found('ignored_retry_after')).toBe(1)
  })

  it('a 503 asks its own operation to wait: another operation meanwhile is fine', () => {
    const { call, found, at } = recorder()
    call({
      path: '/api/v1/hub/transactions/in',
      status: 503,
      retryAfter: '2',
      responseBody: '{"detail":"Service temporarily unavailable"}',
    })
    at(1300)
    call({ arrivedMs: 1300 })
    call({
      method: 'GET',
      path: '/api/v1/user/company',
      arrivedMs: 1300,
      requestBody: null,
      responseBody: '{}',
    })
    expect(found('ignored_retry_after')).toBe(0)
    call({ path: '/api/v1/hub/transactions/in', arrivedMs: 1300, responseBody: '{}' })
    expect(found('ignored_retry_after')).toBe(1)
  })

  it('a control call between the lost answer and the next call is a test step: the next call is no retry', () => {
    const { r, call, found, at } = recorder()
    call(LOST_AFTER_WRITE)
    r.controlled('loja-exemplo', 1100)
    at(1200)
    call({ responseBody: '{"status":"success","transaction_id":"E2","message":"ok"}' })
    r.controlled(null, 1300)
    at(1400)
    call({ status: 501, responseBody: '{}', effectBody: '{}' })
    at(1500)
    call({ status: 501, responseBody: '{}', effectBody: '{}' })
    expect([
      found('paid_twice'),
      found('retry_after_server_error'),
      found('retried_permanent_error'),
    ]).toEqual([0, 0, 1])
    // Another company's step is not this company's.
    call(LOST_AFTER_WRITE)
    r.controlled('loja-inativa', 1600)
    at(1700)
    call({ responseBody: '{"status":"success","transaction_id":"E3","message":"ok"}' })
    expect(found('paid_twice')).toBe(1)
  })

  it('paid twice: the same key and amount, whatever the description, both debited; a refused second is a retry only', () => {
    const { call, found, example, at } = recorder()
    call(LOST_AFTER_WRITE)
    at(1500)
    call({
      requestBody:
        '{"amount": 1000, "pix_key": "a@b.co", "pix_type": "EMAIL", "description": "try 2"}',
      responseBody: '{"status":"pending","transaction_id":"E2","message":"ok"}',
    })
    expect(found('paid_twice')).toBe(1)
    expect(example('paid_twice')?.seen).toBe(
      'a transfer of the same amount and pix_key sent 0.5 s after a 500: both went through, two debits (E1, then E2)',
    )
    const other = '{"amount": 2000, "pix_key": "a@b.co", "pix_type": "EMAIL"}'
    call({ ...LOST_AFTER_WRITE, requestBody: other })
    at(2000)
    call({
      requestBody: other,
      status: 422,
      responseBody: '{"detail":"Insufficient balance"}',
      errorCode: 'insufficient_balance',
    })
    expect([found('paid_twice'), found('retry_after_server_error')]).toEqual([1, 1])
  })

  it("paid twice with another description: unconfirmed once the first one's webhook had reached the receiver before the second, even when its acknowledgement is seen after", () => {
    const { r, call, settled, found, at } = recorder()
    const another = (n: number) =>
      `{"amount": 1000, "pix_key": "a@b.co", "pix_type": "EMAIL", "description": "order ${n}"}`
    // The webhook was sent at 1100 and taken; the second came at 1200; the 204 was seen at 1300.
    call(LOST_AFTER_WRITE)
    at(1200)
    call({
      requestBody: another(2),
      responseBody: '{"status":"success","transaction_id":"E2","message":"ok"}',
    })
    expect([found('paid_twice'), found('paid_twice_unconfirmed')]).toEqual([1, 0])
    at(1300)
    settled('E1', 200)
    expect([found('paid_twice'), found('paid_twice_unconfirmed')]).toEqual([0, 1])
    // Sent before the webhook left: paid_twice, whenever it is acknowledged.
    r.controlled('loja-exemplo', 4000)
    at(5000)
    call({
      ...LOST_AFTER_WRITE,
      arrivedMs: 5000,
      effectBody: '{"status":"success","transaction_id":"E3","message":"ok"}',
    })
    at(5100)
    call({
      arrivedMs: 5100,
      requestBody: another(4),
      responseBody: '{"status":"success","transaction_id":"E4","message":"ok"}',
    })
    at(5400)
    settled('E3', 100)
    expect([found('paid_twice'), found('paid_twice_unconfirmed')]).toEqual([1, 1])
    // The same description is the same transfer, acknowledged or not.
    r.controlled('loja-exemplo', 8000)
    at(9000)
    call({
      ...LOST_AFTER_WRITE,
      arrivedMs: 9000,
      effectBody: '{"status":"success","transaction_id":"E5","message":"ok"}',
    })
    at(9100)
    settled('E5', 50)
    at(9200)
    call({
      arrivedMs: 9200,
      responseBody: '{"status":"success","transaction_id":"E6","message":"ok"}',
    })
    expect([found('paid_twice'), found('paid_twice_unconfirmed')]).toEqual([2, 1])
  })

  it('a retry answered while the call it repeats is still held is judged when that call ends', () => {
    const { r, call, found, example, at } = recorder()
    r.held('loja-exemplo', 3000)
    at(1200)
    call({
      arrivedMs: 1200,
      responseBody: '{"status":"success","transaction_id":"E2","message":"ok"}',
    })
    at(4100)
    call({ arrivedMs: 1000, closedMs: 1100, dropped: true })
    expect(found('paid_twice')).toBe(1)
    expect(example('paid_twice')?.seen).toBe(
      'a transfer of the same amount and pix_key sent 0.1 s after its client closed the connection before the answer, while the first was still being processed: both went through, two debits (E1, then E2)',
    )
  })

  it('a call sent again after a 501 is retried_permanent_error whatever it is answered; after a step it is a new test', () => {
    const { r, call, found, example, at } = recorder()
    const refused = { status: 501, responseBody: '{}', effectBody: '{}' }
    call(refused)
    at(1300)
    call({ arrivedMs: 1300 })
    expect(found('retried_permanent_error')).toBe(1)
    expect(example('retried_permanent_error')?.seen).toBe(
      'the same transfer (amount and pix_key) sent again 0.3 s after a 501, with no change of setup between (answered 200)',
    )
    r.controlled(null, 1900)
    at(2000)
    call({ ...refused, arrivedMs: 2000 })
    r.controlled('loja-exemplo', 2100)
    at(2200)
    call({ arrivedMs: 2200 })
    expect(found('retried_permanent_error')).toBe(1)
  })

  it('a retry read a moment before the server saw its client close the first connection is a retry; one sent beside it is not', () => {
    const { r, call, found, at } = recorder()
    r.held('loja-exemplo', 3000)
    at(1200)
    call({
      arrivedMs: 1200,
      responseBody: '{"status":"success","transaction_id":"E2","message":"ok"}',
    })
    at(4100)
    call({ arrivedMs: 1000, closedMs: 1300, dropped: true })
    expect(found('paid_twice')).toBe(1)
    r.controlled('loja-exemplo', 4200)
    r.held('loja-exemplo', 3000)
    at(5100)
    call({
      arrivedMs: 5100,
      responseBody: '{"status":"success","transaction_id":"E4","message":"ok"}',
    })
    at(8100)
    call({
      arrivedMs: 5000,
      closedMs: 6000,
      dropped: true,
      effectBody: '{"status":"success","transaction_id":"E3","message":"ok"}',
    })
    expect(found('paid_twice')).toBe(1)
  })

  it('a 422 for the X-Sandbox-Outcome header meets no behaviour; a transfer status does', () => {
    const { r, call } = recorder()
    call({
      status: 422,
      responseBody: '{"detail":"X-Sandbox-Outcome: must be one of success, pending, failed"}',
    })
    call({ responseBody: '{"status":"pending","transaction_id":"E2","message":"ok"}' })
    const met = r
      .report('loja-exemplo')
      .behaviours.filter((b) => b.met)
      .map((b) => b.id)
    expect(met).toEqual(['transfer.pending'])
  })
})

describe('lenientAmount', () => {
  it.each([
    ['{"amount": 1000}', null],
    ['{"amount":"1000"}', 'amount "1000" (a string)'],
    ['{"amount": true}', 'amount true (a boolean)'],
    ['{"amount": 10.0}', 'amount 10.0 (a float)'],
    ['{"amount": 1E3, "x": 1}', 'amount 1E3 (a float)'],
    ['{"meta": {"amount": "2"}, "amount": 5 }', null],
    ['{"amount": 1, "amount": "5"}', 'amount "5" (a string)'],
    ['{"meta": {"amount": 5}, "amount": "9"}', 'amount "9" (a string)'],
    ['{"description": "\\"amount\\": 5,", "amount": 2.5}', 'amount 2.5 (a float)'],
    ['{"description": "\\"amount\\": 2.5", "amount": 7}', null],
    ['{"x": [1, {"amount": 2.5}], "amount": "9"}', 'amount "9" (a string)'],
  ])('%s: %s', (body, expected) => expect(lenientAmount(body)).toBe(expected))

  it('reads the last top-level member, as JSON.parse keeps it', () => {
    expect(topLevelValue('{"a": {"b": 1}, "b": [2], "b": "3"}', 'b')).toBe('"3"')
    expect(topLevelValue('[1]', 'b')).toBeNull()
  })
})

describe('any body a client sends', () => {
  it.each(['amount', 'pix_key', 'description'])(
    'a %s nested 300,000 deep in a call answered 503 (the body budget) leaves the recorder judging',
    (field) => {
      // The differential drew such a body (seed 390140803) while the body budget answered 503:
      // keeping it to judge a retry overflowed the stack, and the call's journaling threw.
      const { call, found } = recorder()
      const fields: Record<string, string> = {
        amount: '1000',
        pix_key: '"a@b.co"',
        description: '"x"',
      }
      fields[field] = `${'['.repeat(300_000)}1${']'.repeat(300_000)}`
      const requestBody = `{"amount": ${fields.amount}, "pix_key": ${fields.pix_key}, "pix_type": "EMAIL", "description": ${fields.description}}`
      const unavailable = { status: 503, responseBody: '{"detail":"Service Unavailable"}' }
      expect(() => call({ ...unavailable, requestBody })).not.toThrow()
      expect(() => call({ ...unavailable, requestBody, arrivedMs: 1001 })).not.toThrow()
      // And the second is still judged: the same transfer sent again after a 5xx.
      expect(found('retry_after_server_error')).toBeGreaterThan(0)
    },
  )
})
