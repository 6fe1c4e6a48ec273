// The order of checks (docs/CONTRACT.md#order-of-checks), first failure wins: JSON -> 401 -> 403 -> schema -> Provider -> 501 -> rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AUTH,
  basic,
  storeSnapshot,
  startTestSandbox,
  tenantDoc,
  type TestSandbox,
} from '../harness.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('charge-perm', { permissions: ['charge'] })] })
})
afterAll(() => sb.close())

const CHARGE = '/api/v1/hub/transactions/in'
const TRANSFER = '/api/v1/hub/transactions/out'
const validTransfer = { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL' }
const raw = (body: string) => ({ body, headers: { 'content-type': 'application/json' } })

describe('order of checks', () => {
  it('1 before 2: malformed JSON without credentials is 422', async () => {
    const res = await sb.request('POST', CHARGE, raw('{"amount": 10'))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: 'body: invalid JSON' })
  })

  it('2 before 4: a schema-invalid body without credentials is 401', async () => {
    const res = await sb.request('POST', CHARGE, { json: { amount: 'ten' } })
    expect(res.status).toBe(401)
  })

  it('2 before 4: an empty body without credentials is 401', async () => {
    expect((await sb.request('POST', TRANSFER, raw(''))).status).toBe(401)
  })

  it('1 before 3: malformed JSON from an inactive company is 422, not 403', async () => {
    const res = await sb.request('POST', TRANSFER, { auth: AUTH.inactive, ...raw('not json') })
    expect(res.status).toBe(422)
    expect(res.body.detail).toBe('body: invalid JSON')
  })

  it('3 before 4: a schema-invalid body from an inactive company is 403', async () => {
    const res = await sb.request('POST', CHARGE, { auth: AUTH.inactive, json: { amount: -1 } })
    expect(res).toMatchObject({
      status: 403,
      body: { detail: 'API access is not active for this company' },
    })
  })

  it('3: a user without the permission gets 403 Not enough permissions, even with a bad body', async () => {
    const auth = basic('charge-perm', 'charge-perm-secret')
    expect(await sb.request('POST', TRANSFER, { auth, json: validTransfer })).toMatchObject({
      status: 403,
      body: { detail: 'Not enough permissions' },
    })
    expect((await sb.request('POST', TRANSFER, { auth, json: {} })).status).toBe(403)
    expect((await sb.request('POST', CHARGE, { auth, json: { amount: 1000 } })).status).toBe(200)
  })

  it('4 before 5: a schema-invalid body from a user without Provider gives the field error', async () => {
    const res = await sb.request('POST', CHARGE, { auth: AUTH.noProvider, json: { amount: 0 } })
    expect(res).toMatchObject({
      status: 422,
      body: { detail: 'amount: must be an integer greater than 0' },
    })
  })

  it('5: a valid body from a user without Provider gets the Provider error, on both POSTs', async () => {
    const detail = 'User does not have a Provider configured. Please contact support.'
    expect(
      await sb.request('POST', CHARGE, { auth: AUTH.noProvider, json: { amount: 1000 } }),
    ).toMatchObject({ status: 422, body: { detail } })
    expect(
      await sb.request('POST', TRANSFER, { auth: AUTH.noProvider, json: validTransfer }),
    ).toMatchObject({ status: 422, body: { detail } })
  })

  it('4 before 6: a schema-invalid transfer from charges-only gives the field error, not 501', async () => {
    const res = await sb.request('POST', TRANSFER, {
      auth: AUTH.chargesOnly,
      json: { ...validTransfer, pix_type: 'IBAN' },
    })
    expect(res).toMatchObject({
      status: 422,
      body: { detail: 'pix_type: must be one of CPF, CNPJ, EMAIL, PHONE' },
    })
  })

  it('6: a Provider without the operation is 501', async () => {
    const res = await sb.request('POST', TRANSFER, { auth: AUTH.chargesOnly, json: validTransfer })
    expect(res).toMatchObject({
      status: 501,
      body: { detail: 'Provider does not support this operation' },
    })
    expect(
      (await sb.request('POST', CHARGE, { auth: AUTH.chargesOnly, json: { amount: 1000 } })).status,
    ).toBe(200)
  })

  it('6 before 7: the 501 wins over an insufficient balance', async () => {
    const res = await sb.request('POST', TRANSFER, {
      auth: AUTH.chargesOnly,
      json: { ...validTransfer, amount: 999_999_999 },
    })
    expect(res.status).toBe(501)
  })

  it('7: business rules come last (insufficient balance)', async () => {
    const res = await sb.request('POST', TRANSFER, { auth: AUTH.emptyBalance, json: validTransfer })
    expect(res).toMatchObject({ status: 422, body: { detail: 'Insufficient balance' } })
  })

  it('refused requests write nothing', async () => {
    const before = storeSnapshot(sb)
    await sb.request('POST', TRANSFER, { auth: AUTH.emptyBalance, json: validTransfer })
    await sb.request('POST', TRANSFER, { auth: AUTH.chargesOnly, json: validTransfer })
    await sb.request('POST', CHARGE, { auth: AUTH.noProvider, json: { amount: 1000 } })
    await sb.request('POST', CHARGE, { auth: AUTH.inactive, json: { amount: 1000 } })
    expect(storeSnapshot(sb)).toEqual(before)
  })
})

describe('inactive company', () => {
  it('answers 403 on both POSTs and 200 on company with api_active false', async () => {
    const detail = 'API access is not active for this company'
    expect(
      await sb.request('POST', CHARGE, { auth: AUTH.inactive, json: { amount: 1000 } }),
    ).toMatchObject({ status: 403, body: { detail } })
    expect(
      await sb.request('POST', TRANSFER, { auth: AUTH.inactive, json: validTransfer }),
    ).toMatchObject({ status: 403, body: { detail } })
    const company = await sb.request('GET', '/api/v1/user/company', { auth: AUTH.inactive })
    expect(company.status).toBe(200)
    expect(company.body.api_active).toBe(false)
  })
})
