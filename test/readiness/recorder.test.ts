// The recorder's judgements where time and wording matter, driven directly with a clock of our
// own: a retry counts within 60 s of the failure only, Retry-After holds for its seconds only,
// and a 422 for the outcome header is no body error. And lenientAmount reads the top level only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lenientAmount, topLevelValue } from '../../src/readiness/amount.js'
import { createReadiness, type RequestSeen } from '../../src/readiness/recorder.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

function recorder() {
  let now = 1000
  const r = createReadiness({ store: sb.sandbox.store, clock: sb.sandbox.clock, persistent: false, redact: (t) => t, nowMs: () => now })
  const call = (o: Partial<RequestSeen>) =>
    r.request({
      method: 'POST', path: '/api/v1/hub/transactions/out', status: 200, companyId: 'loja-exemplo', clientId: 'sandbox-client', authorization: undefined,
      contentType: 'application/json', accept: 'application/json', requestBody: '{"amount": 1000, "pix_key": "a@b.co", "pix_type": "EMAIL"}',
      responseBody: '{"status":"success","transaction_id":"E1","message":"ok"}', retryAfter: null, dropped: false, at: 0, arrivedMs: now, ...o,
    })
  const found = (id: string) => r.report('loja-exemplo').findings.find((f) => f.id === id)?.count ?? 0
  return { r, call, found, at: (ms: number) => (now = ms) }
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
    call({ path: '/api/v1/hub/transactions/in', status: 503, retryAfter: '2', responseBody: '{"detail":"Service temporarily unavailable"}' })
    at(2999)
    call({ path: '/api/v1/hub/transactions/in', arrivedMs: 2999, responseBody: '{}' })
    expect(found('ignored_retry_after')).toBe(1)
    at(3001)
    call({ path: '/api/v1/hub/transactions/in', arrivedMs: 3001, responseBody: '{}' })
    expect(found('ignored_retry_after')).toBe(1)
  })

  it('a 422 for the X-Sandbox-Outcome header meets no behaviour; a transfer status does', () => {
    const { r, call } = recorder()
    call({ status: 422, responseBody: '{"detail":"X-Sandbox-Outcome: must be one of success, pending, failed"}' })
    call({ responseBody: '{"status":"pending","transaction_id":"E2","message":"ok"}' })
    const met = r.report('loja-exemplo').behaviours.filter((b) => b.met).map((b) => b.id)
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
    ['{"amount": 1, "amount": "5"}', null],
    ['{"description": "\\"amount\\": 2.5", "amount": 7}', null],
    ['{"x": [1, {"amount": 2.5}], "amount": "9"}', 'amount "9" (a string)'],
  ])('%s: %s', (body, expected) => expect(lenientAmount(body)).toBe(expected))

  it('reads the last top-level member, as JSON.parse keeps it', () => {
    expect(topLevelValue('{"a": {"b": 1}, "b": [2], "b": "3"}', 'b')).toBe('"3"')
    expect(topLevelValue('[1]', 'b')).toBeNull()
  })
})
