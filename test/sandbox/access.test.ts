// Control-plane authorization (docs/CONTROL-PLANE.md): the admin token sees everything; a company's own Basic credentials see
// that company only (other ids 404) and cannot run global operations (403).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'

let sb: TestSandbox
let mine: string
let theirs: string
const OTHER = basic('other', 'other-secret')

beforeAll(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('other', { balance: 5000 })] })
  mine = (
    await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 100 },
    })
  ).body.transaction_id
  theirs = (
    await sb.request('POST', '/api/v1/hub/transactions/in', { auth: OTHER, json: { amount: 200 } })
  ).body.transaction_id
})
afterAll(() => sb.close())

const as = (auth: string | undefined, method: string, path: string, json?: unknown) =>
  sb.request(method, `/_sandbox${path}`, { auth, json })

describe('control plane access', () => {
  it('401 without credentials, with a wrong admin token, or with bad Basic credentials', async () => {
    for (const auth of [
      undefined,
      'Bearer wrong-token',
      basic('sandbox-client', 'nope'),
      AUTH.production,
    ]) {
      const res = await as(auth, 'GET', '/charges')
      expect(res).toMatchObject({ status: 401, body: { detail: 'Not authenticated' } })
      expect(res.headers.get('www-authenticate'), auth).toBe('Basic, Bearer')
    }
  })

  it.each([
    ['POST', '/reset', {}],
    ['GET', '/scenarios', undefined],
    ['POST', '/scenarios', { name: 'default' }],
    ['POST', '/companies', {}],
    ['PATCH', '/companies/loja-exemplo', { api_active: false }],
    ['DELETE', '/companies/loja-exemplo', undefined],
    ['PUT', '/users/loja-exemplo-user/providers', { in: null }],
    ['GET', '/clock', undefined],
    ['POST', '/clock/advance', { seconds: 1 }],
    ['POST', '/clock/freeze', undefined],
  ])('403 for global operation %s %s with company credentials', async (method, path, json) => {
    const res = await as(AUTH.main, method, path, json)
    expect(res.status).toBe(403)
    expect(res.body.detail).toMatch(/admin token/)
  })

  it("a company reads its own charges and gets 404 for another company's", async () => {
    expect((await as(AUTH.main, 'GET', `/charges/${mine}`)).status).toBe(200)
    expect(await as(AUTH.main, 'GET', `/charges/${theirs}`)).toMatchObject({
      status: 404,
      body: { detail: 'Charge not found' },
    })
    expect((await as(OTHER, 'GET', `/charges/${theirs}`)).status).toBe(200)
    expect((await as(OTHER, 'GET', `/charges/${mine}`)).status).toBe(404)
    expect((await as(OTHER, 'POST', `/charges/${mine}/pay`)).status).toBe(404)
    expect(sb.sandbox.store.charges.byId(mine)?.status).toBe('pending')
  })

  it('lists only its own company, and 404 when it asks for another', async () => {
    const own = await as(AUTH.main, 'GET', '/charges')
    expect(own.body.data.map((c: { company_id: string }) => c.company_id)).toEqual(['loja-exemplo'])
    expect((await as(AUTH.main, 'GET', '/charges?company_id=other')).status).toBe(404)
    const all = await sb.admin('GET', '/charges')
    expect(all.body.data.map((c: { company_id: string }) => c.company_id).sort()).toEqual([
      'loja-exemplo',
      'other',
    ])
    expect((await sb.admin('GET', '/charges?company_id=other')).body.data).toHaveLength(1)
  })

  it("reads and sets its own users' balances only", async () => {
    expect((await as(AUTH.main, 'GET', '/users/loja-exemplo-user/balance')).status).toBe(200)
    expect((await as(AUTH.main, 'GET', '/users/other-user/balance')).status).toBe(404)
    expect((await as(AUTH.main, 'PUT', '/users/other-user/balance', { amount: 1 })).status).toBe(
      404,
    )
    expect(sb.sandbox.store.ledger.balance('other-user')).toBe(5000)
  })

  it('whoami tells the ids behind Basic credentials, and nulls for the admin token', async () => {
    expect((await as(OTHER, 'GET', '/whoami')).body).toEqual({
      company_id: 'other',
      user_id: 'other-user',
      client_id: 'other',
      environment: 'sandbox',
    })
    expect((await sb.admin('GET', '/whoami')).body).toEqual({
      company_id: null,
      user_id: null,
      client_id: null,
      environment: 'sandbox',
    })
  })

  it('health needs no credentials and tells the virtual time', async () => {
    expect((await as(undefined, 'GET', '/health')).body).toMatchObject({
      status: 'ok',
      environment: 'sandbox',
      scenario: 'default',
      now: '2026-03-01T12:00:00.000000Z',
    })
  })
})
