// Each fixed credential of the default scenario does what its row in the README's table says (README.md#default-credentials).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const charge = (auth: string) =>
  sb.request('POST', '/api/v1/hub/transactions/in', { auth, json: { amount: 1000 } })
const transfer = (auth: string) =>
  sb.request('POST', '/api/v1/hub/transactions/out', {
    auth,
    json: { amount: 1000, pix_key: '+5511987654321', pix_type: 'PHONE' },
  })
const company = (auth: string) => sb.request('GET', '/api/v1/user/company', { auth })
const detail = (r: { status: number; body: any }) => [r.status, r.body.detail ?? r.body.status]

describe('the default credentials', () => {
  it('sandbox-client: Loja Exemplo Ltda, active, both Providers, balance 1000000', async () => {
    expect(detail(await charge(AUTH.main))).toEqual([200, 'pending'])
    expect(detail(await transfer(AUTH.main))).toEqual([200, 'success'])
    expect((await company(AUTH.main)).body.api_active).toBe(true)
    expect(sb.sandbox.store.identity.company('loja-exemplo')?.name).toBe('Loja Exemplo Ltda')
    expect(sb.sandbox.store.ledger.balance('loja-exemplo-user')).toBe(1_000_000 - 1000)
  })

  it('no-provider: 422 on both POSTs', async () => {
    const msg = 'User does not have a Provider configured. Please contact support.'
    expect(detail(await charge(AUTH.noProvider))).toEqual([422, msg])
    expect(detail(await transfer(AUTH.noProvider))).toEqual([422, msg])
  })

  it('charges-only: charges work, transfers answer 501', async () => {
    expect(detail(await charge(AUTH.chargesOnly))).toEqual([200, 'pending'])
    expect(detail(await transfer(AUTH.chargesOnly))).toEqual([
      501,
      'Provider does not support this operation',
    ])
  })

  it('inactive: 403 on POSTs, company answers api_active false', async () => {
    const msg = 'API access is not active for this company'
    expect(detail(await charge(AUTH.inactive))).toEqual([403, msg])
    expect(detail(await transfer(AUTH.inactive))).toEqual([403, msg])
    expect((await company(AUTH.inactive)).body.api_active).toBe(false)
  })

  it('production-client: 401 everywhere in the sandbox', async () => {
    for (const r of [
      await charge(AUTH.production),
      await transfer(AUTH.production),
      await company(AUTH.production),
    ]) {
      expect(detail(r)).toEqual([401, 'Not authenticated'])
    }
  })

  it('empty-balance: charges work, transfers are refused for insufficient balance', async () => {
    expect(detail(await charge(AUTH.emptyBalance))).toEqual([200, 'pending'])
    expect(detail(await transfer(AUTH.emptyBalance))).toEqual([422, 'Insufficient balance'])
  })
})
