// The body rules (docs/CONTRACT.md#body-rules) in the default `simple` style: `{"detail": "<field>: <reason>"}`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDynamicCode } from '../../src/pix/brcode.js'
import { AUTH, storeSnapshot, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const charge = (json: unknown) =>
  sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json })
const transfer = (json: unknown) =>
  sb.request('POST', '/api/v1/hub/transactions/out', { auth: AUTH.main, json })
const key = { pix_key: 'maria@example.com', pix_type: 'EMAIL' }
const POSITIVE = 'amount: must be an integer greater than 0'

describe('amount', () => {
  it.each([
    ['a string', '1000', POSITIVE],
    ['a float with a fraction', 10.5, POSITIVE],
    ['a boolean', true, POSITIVE],
    ['null', null, POSITIVE],
    ['an array', [1000], POSITIVE],
    ['an object', { value: 1000 }, POSITIVE],
    ['zero', 0, POSITIVE],
    ['negative', -5, POSITIVE],
    ['above the BR Code maximum', 1_000_000_000_000, 'amount: must be at most 999999999999'],
    ['astronomically large', 1e300, 'amount: must be at most 999999999999'],
  ])('refuses %s on both POSTs', async (_name, amount, detail) => {
    expect(await charge({ amount })).toMatchObject({ status: 422, body: { detail } })
    expect(await transfer({ amount, ...key })).toMatchObject({ status: 422, body: { detail } })
  })

  it('is required', async () => {
    expect(await charge({ description: 'x' })).toMatchObject({
      status: 422,
      body: { detail: 'amount: field required' },
    })
  })

  it('accepts 1, the maximum, and 10.0 (JSON has no separate integer type)', async () => {
    expect((await charge({ amount: 1 })).status).toBe(200)
    expect((await charge({ amount: 999_999_999_999 })).status).toBe(200)
    expect((await charge({ amount: 10.0 })).status).toBe(200)
  })
})

describe('description', () => {
  it('accepts 140 code points, counting an emoji as one', async () => {
    expect((await charge({ amount: 100, description: '😀'.repeat(140) })).status).toBe(200)
    expect((await charge({ amount: 100, description: 'a'.repeat(140) })).status).toBe(200)
  })

  it('refuses 141 code points', async () => {
    const res = await charge({ amount: 100, description: 'é'.repeat(141) })
    expect(res).toMatchObject({
      status: 422,
      body: { detail: 'description: must be at most 140 characters' },
    })
  })

  it('must be a string when present, null meaning absent', async () => {
    expect(await transfer({ amount: 100, ...key, description: 42 })).toMatchObject({
      status: 422,
      body: { detail: 'description: must be a string' },
    })
    expect((await charge({ amount: 100, description: null })).status).toBe(200)
  })
})

describe('payload', () => {
  const code = (amount: number) =>
    buildDynamicCode({
      location: 'pix.example.com/qr/v2/abc',
      amount,
      merchantName: 'Outra Loja',
      merchantCity: 'Recife',
    })
  const staticCode =
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

  it('reuses a valid BR Code as the charge qr_code, as given', async () => {
    const res = await charge({ amount: 2500, payload: code(2500) })
    expect(res.status).toBe(200)
    expect(res.body.qr_code).toBe(code(2500))
  })

  it('accepts a static code without amount', async () => {
    expect((await charge({ amount: 2500, payload: staticCode })).body.qr_code).toBe(staticCode)
  })

  it('refuses a code whose amount differs from amount', async () => {
    const res = await charge({ amount: 2500, payload: code(2600) })
    expect(res).toMatchObject({
      status: 422,
      body: { detail: 'payload: the BR Code amount (field 54) differs from amount' },
    })
  })

  it.each([
    ['a wrong CRC', staticCode.slice(0, -1) + 'E'],
    [
      'a location with a scheme',
      '00020126540014br.gov.bcb.pix2532https://pix.thalesogliari.com.br5204000053039865802BR5914Thales Ogliari6009SAO PAULO62070503***63043FD3',
    ],
    ['free text', 'pay me'],
    ['an empty string', ''],
  ])('refuses %s', async (_name, payload) => {
    expect(await charge({ amount: 100, payload })).toMatchObject({
      status: 422,
      body: { detail: 'payload: must be a valid BR Code (format and CRC)' },
    })
  })
})

describe('pix_type and pix_key', () => {
  it.each([
    ['CPF', '52998224725'],
    ['CNPJ', '11222333000181'],
    ['EMAIL', 'fulano.de.tal@example.com.br'],
    ['PHONE', '+5511987654321'],
    ['PHONE', '+551133334444'],
    ['PHONE', '+14155550123'],
  ])('accepts a valid %s key %s', async (pix_type, pix_key) => {
    expect((await transfer({ amount: 100, pix_type, pix_key })).status).toBe(200)
  })

  it.each([
    ['CPF', '52998224724', 'pix_key: must be a CPF of 11 digits with valid check digits'],
    ['CPF', '529.982.247-25', 'pix_key: must be a CPF of 11 digits with valid check digits'],
    ['CPF', '11111111111', 'pix_key: must be a CPF of 11 digits with valid check digits'],
    ['CNPJ', '11222333000182', 'pix_key: must be a CNPJ of 14 digits with valid check digits'],
    ['EMAIL', 'not-an-email', 'pix_key: must be a valid email address of at most 77 characters'],
    [
      'EMAIL',
      `${'a'.repeat(70)}@example.com`,
      'pix_key: must be a valid email address of at most 77 characters',
    ],
    [
      'PHONE',
      '11987654321',
      'pix_key: must be a phone number in E.164 format, e.g. +5511987654321',
    ],
    [
      'PHONE',
      '+55119876543210',
      'pix_key: must be a phone number in E.164 format, e.g. +5511987654321',
    ],
    ['PHONE', '+551198765', 'pix_key: must be a phone number in E.164 format, e.g. +5511987654321'],
    ['EMAIL', '52998224725', 'pix_key: must be a valid email address of at most 77 characters'],
  ])('refuses a %s key %s', async (pix_type, pix_key, detail) => {
    expect(await transfer({ amount: 100, pix_type, pix_key })).toMatchObject({
      status: 422,
      body: { detail },
    })
  })

  it.each(['cpf', 'EVP', '', null, 1])('refuses pix_type %j', async (pix_type) => {
    const res = await transfer({ amount: 100, pix_type, pix_key: '52998224725' })
    expect(res).toMatchObject({
      status: 422,
      body: { detail: 'pix_type: must be one of CPF, CNPJ, EMAIL, PHONE' },
    })
  })

  it('requires both', async () => {
    expect((await transfer({ amount: 100, pix_type: 'CPF' })).body.detail).toBe(
      'pix_key: field required',
    )
    expect((await transfer({ amount: 100, pix_key: '52998224725' })).body.detail).toBe(
      'pix_type: field required',
    )
  })
})

describe('the body as a whole', () => {
  const raw = (body: string, type = 'application/json') =>
    sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      body,
      headers: { 'content-type': type },
    })

  it('ignores unknown fields', async () => {
    expect((await charge({ amount: 100, currency: 'USD', __proto__x: 1 })).status).toBe(200)
  })

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"amount"'],
    ['a number', '1000'],
  ])('refuses %s: body must be a JSON object', async (_n, body) => {
    expect(await raw(body)).toMatchObject({
      status: 422,
      body: { detail: 'body: must be a JSON object' },
    })
  })

  it('refuses an empty body and a null body as a missing body', async () => {
    expect(await raw('')).toMatchObject({ status: 422, body: { detail: 'body: field required' } })
    expect(await raw('null')).toMatchObject({
      status: 422,
      body: { detail: 'body: field required' },
    })
  })

  it('refuses a non-JSON content type as a non-object body, after authentication', async () => {
    const detail = 'body: expected a JSON object (content-type application/json)'
    expect(await raw('amount=100', 'application/x-www-form-urlencoded')).toMatchObject({
      status: 422,
      body: { detail },
    })
    expect(await raw('{"amount":100}', 'application / json')).toMatchObject({
      status: 422,
      body: { detail },
    })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          body: 'amount=100',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(401)
  })

  it('parses JSON only with a JSON content type, as FastAPI 0.132 and later: none is not JSON', async () => {
    // fetch adds no content type to a byte body
    const bytes = new TextEncoder().encode('{"amount":100}')
    const detail = 'body: expected a JSON object (content-type application/json)'
    expect(
      await sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, body: bytes }),
    ).toMatchObject({ status: 422, body: { detail } })
    expect((await raw('{"amount":100}', 'application/vnd.api+json; charset=utf-8')).status).toBe(
      200,
    )
    expect((await raw('{"amount":100}', 'Application/Problem+JSON')).status).toBe(200)
  })

  it('parses a body without a content type as JSON with strict_content_type: false (FastAPI 0.122-0.131)', async () => {
    sb.apply({ settings: { strict_content_type: false } })
    try {
      const bytes = new TextEncoder().encode('{"amount":100}')
      expect(
        (await sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, body: bytes }))
          .status,
      ).toBe(200)
      expect(await raw('amount=100', 'text/plain')).toMatchObject({ status: 422 })
    } finally {
      sb.apply({ settings: { strict_content_type: true } })
    }
  })

  it('leaves the store untouched when it refuses a body', async () => {
    const before = storeSnapshot(sb)
    await charge({ amount: 'x' })
    await transfer({ amount: 100, pix_type: 'CPF', pix_key: '1' })
    expect(storeSnapshot(sb)).toEqual(before)
  })
})
