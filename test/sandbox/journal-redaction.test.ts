// What the journal keeps of a request: enough to debug (the auth scheme, which requests were
// made) and never a secret. Each case here once survived a mutation of the code that does it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const CHARGE = '/api/v1/hub/transactions/in'
const newest = async () => (await sb.admin('GET', '/requests?limit=1')).body.data[0]

describe('the journal keeps the Authorization scheme and hides the rest', () => {
  it.each([
    ['Basic', AUTH.main],
    ['Bearer', 'Bearer some-opaque-token-value'],
  ])('%s', async (scheme, auth) => {
    await sb.request('GET', '/api/v1/user/company', { auth })
    const headers = (await newest()).request.headers
    expect(headers.authorization).toBe(`${scheme} [redacted]`)
  })
})

describe('the admin token never reaches the journal', () => {
  it('is scrubbed from request bodies, response bodies and any header', async () => {
    const token = sb.adminToken
    const created = await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      json: { amount: 100, description: `note ${token} end` },
      headers: { 'x-debug-note': `copied ${token} here` },
    })
    expect(created.status).toBe(200)
    // The control plane echoes the description back: the response body holds the token too.
    await sb.admin('GET', `/charges/${created.body.transaction_id}`)
    const everything = JSON.stringify((await sb.admin('GET', '/requests?limit=50')).body)
    expect(everything).not.toContain(token)
    const [read, charge] = (await sb.admin('GET', '/requests?limit=2')).body.data
    expect(charge.request.body.description).toBe('note [redacted] end')
    expect(charge.request.headers['x-debug-note']).toBe('copied [redacted] here')
    expect(read.response.body.description).toBe('note [redacted] end')
  })
})

describe('the journal skips health checks and the documents', () => {
  it('counts none of them, so polling them does not drown what a suite counts', async () => {
    for (const path of ['/_sandbox/health', '/openapi.json', '/_sandbox/openapi.json', '/docs']) {
      expect((await sb.request('GET', path)).status, path).toBe(200)
    }
    await sb.admin('GET', '/requests')
    expect((await sb.admin('GET', '/requests/count')).body).toEqual({ count: 0 })
    await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
    expect((await sb.admin('GET', '/requests/count')).body).toEqual({ count: 1 })
  })
})

describe('the journal redacts secrets by name, in bodies that do not parse and in the strings of those that do', () => {
  it.each([
    ['application/json', '{"amount":100,"client_secret":12345678,}', '12345678'],
    ['application/json', "{'client_secret':'LEAK-1'}", 'LEAK-1'],
    ['application/x-www-form-urlencoded', 'client_secret = LEAK-2', 'LEAK-2'],
    ['text/plain', 'client_secret\tLEAK-3', 'LEAK-3'],
    [
      'application/json',
      '{"amount":100,"private_key":"LEAK-4","pwd":"LEAK-5","passphrase":"LEAK-6"}',
      'LEAK-',
    ],
    // The follow-up: XML, pairs inside the strings of JSON that parses, `pass`, a YAML block
    // scalar, a line break or a Unicode space between name and value.
    [
      'application/xml',
      '<req><client_secret>LEAK-7</client_secret><password>LEAK-7b</password></req>',
      'LEAK-7',
    ],
    ['application/json', '"client_secret=LEAK-8"', 'LEAK-8'],
    ['application/json', '["client_secret: LEAK-9"]', 'LEAK-9'],
    ['application/json', '{"payload":"{\\"client_secret\\":\\"LEAK-10\\"}"}', 'LEAK-10'],
    ['application/json', '{"user":"a","pass":"LEAK-12"}', 'LEAK-12'],
    ['text/plain', 'client_secret\nLEAK-14', 'LEAK-14'],
    ['text/plain', 'client_secret\u00a0LEAK-22', 'LEAK-22'],
    ['text/plain', 'client_secret\u3000LEAK-23', 'LEAK-23'],
    ['text/yaml', 'client_secret: |\n  LEAK-26\n', 'LEAK-26'],
  ])('%s %s', async (type, body, secret) => {
    await sb.request('POST', CHARGE, { auth: AUTH.main, body, headers: { 'content-type': type } })
    const entry = await newest()
    expect(JSON.stringify(entry.request.body)).toContain('[redacted]')
    expect(JSON.stringify(entry)).not.toContain(secret)
  })
})

describe('the journal redacts `pass` in a query string and a header', () => {
  it('keeps neither value', async () => {
    await sb.request('GET', '/api/v1/user/company?pass=QLEAK-3&limit=1', {
      auth: AUTH.main,
      headers: { 'x-pass': 'HLEAK-3' },
    })
    const entry = await newest()
    expect(entry.request.headers['x-pass']).toBe('[redacted]')
    expect(JSON.stringify(entry)).not.toMatch(/[QH]LEAK/)
  })
})
