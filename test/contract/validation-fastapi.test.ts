// The `fastapi` validation style (docs/CONTRACT.md#validation-styles): FastAPI's own 422 bodies (pydantic v2 error types) and lax coercion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox()
  sb.apply({ settings: { validation_errors: 'fastapi' } })
})
afterAll(() => sb.close())

const CHARGE = '/api/v1/hub/transactions/in'
const charge = (json: unknown) => sb.request('POST', CHARGE, { auth: AUTH.main, json })
const transfer = (json: unknown) =>
  sb.request('POST', '/api/v1/hub/transactions/out', { auth: AUTH.main, json })
const raw = (body: string, auth?: string) =>
  sb.request('POST', CHARGE, { auth, body, headers: { 'content-type': 'application/json' } })

describe('lax coercion, as pydantic does it', () => {
  it.each([
    ['"100"', '100', 100],
    ['10.0', 10.0, 10],
    ['" 250 "', ' 250 ', 250],
    ['"1_000"', '1_000', 1000],
    ['"300.00"', '300.00', 300],
    ['true', true, 1],
  ])('accepts amount %s as %i cents', async (_n, amount, cents) => {
    const res = await charge({ amount })
    expect(res.status).toBe(200)
    const stored = sb.sandbox.store.charges.byId(res.body.transaction_id)
    expect(stored?.amount).toBe(cents)
  })
})

describe('error bodies', () => {
  it('missing field: type missing, the whole body as input', async () => {
    expect((await charge({ description: 'x' })).body).toEqual({
      detail: [
        {
          type: 'missing',
          loc: ['body', 'amount'],
          msg: 'Field required',
          input: { description: 'x' },
        },
      ],
    })
  })

  it('int_parsing for a string that is not an integer', async () => {
    expect((await charge({ amount: 'dez' })).body.detail).toEqual([
      {
        type: 'int_parsing',
        loc: ['body', 'amount'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'dez',
      },
    ])
  })

  it('int_from_float for a fraction', async () => {
    expect((await charge({ amount: 10.5 })).body.detail).toEqual([
      {
        type: 'int_from_float',
        loc: ['body', 'amount'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 10.5,
      },
    ])
  })

  it('int_type for null', async () => {
    expect((await charge({ amount: null })).body.detail).toEqual([
      {
        type: 'int_type',
        loc: ['body', 'amount'],
        msg: 'Input should be a valid integer',
        input: null,
      },
    ])
  })

  it('greater_than with ctx gt 0, reporting the original input', async () => {
    expect((await charge({ amount: '0' })).body.detail).toEqual([
      {
        type: 'greater_than',
        loc: ['body', 'amount'],
        msg: 'Input should be greater than 0',
        input: '0',
        ctx: { gt: 0 },
      },
    ])
  })

  it('less_than_equal above the maximum', async () => {
    expect((await charge({ amount: 1_000_000_000_000 })).body.detail[0]).toEqual({
      type: 'less_than_equal',
      loc: ['body', 'amount'],
      msg: 'Input should be less than or equal to 999999999999',
      input: 1_000_000_000_000,
      ctx: { le: 999_999_999_999 },
    })
  })

  it('literal_error for pix_type', async () => {
    expect((await transfer({ amount: 1, pix_key: 'a@b.co', pix_type: 'EVP' })).body.detail).toEqual(
      [
        {
          type: 'literal_error',
          loc: ['body', 'pix_type'],
          msg: "Input should be 'CPF', 'CNPJ', 'EMAIL' or 'PHONE'",
          input: 'EVP',
          ctx: { expected: "'CPF', 'CNPJ', 'EMAIL' or 'PHONE'" },
        },
      ],
    )
  })

  it('string_too_long and string_type for description', async () => {
    const long = 'x'.repeat(141)
    expect((await charge({ amount: 1, description: long })).body.detail).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'description'],
        msg: 'String should have at most 140 characters',
        input: long,
        ctx: { max_length: 140 },
      },
    ])
    expect((await charge({ amount: 1, description: 7 })).body.detail[0]).toMatchObject({
      type: 'string_type',
      input: 7,
    })
  })

  it('value_error for a key that does not match its type', async () => {
    expect((await transfer({ amount: 1, pix_key: '123', pix_type: 'CPF' })).body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'pix_key'],
        msg: 'Value error, pix_key must be a CPF of 11 digits with valid check digits',
        input: '123',
        ctx: { error: {} },
      },
    ])
  })

  it('lists every failing field, in declaration order', async () => {
    const detail = (await transfer({ amount: 'x', pix_type: 'CPF' })).body.detail
    expect(detail.map((e: { type: string; loc: string[] }) => [e.type, e.loc[1]])).toEqual([
      ['int_parsing', 'amount'],
      ['missing', 'pix_key'],
    ])
  })

  it("json_invalid with the position and message of Python's json module, before authentication", async () => {
    for (const auth of [undefined, AUTH.main]) {
      const res = await raw('{"amount": }', auth)
      expect(res.status).toBe(422)
      expect(res.body).toEqual({
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 11],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: 'Expecting value' },
          },
        ],
      })
    }
  })

  it.each([
    ['{"amount" 1}', 10, "Expecting ':' delimiter"],
    ["{'amount': 1}", 1, 'Expecting property name enclosed in double quotes'],
    ['{"amount": 1', 12, "Expecting ',' delimiter"],
    ['{"amount": 1}}', 13, 'Extra data'],
    ['{"a": "unterminated', 6, 'Unterminated string starting at'],
  ])('json_invalid for %s at %i: %s', async (body, pos, error) => {
    expect((await raw(body)).body.detail[0]).toMatchObject({
      type: 'json_invalid',
      loc: ['body', pos],
      ctx: { error },
    })
  })

  it('model_attributes_type for a body that is not an object, missing for an empty one', async () => {
    expect((await raw('[1]', AUTH.main)).body.detail).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [1],
      },
    ])
    expect((await raw('', AUTH.main)).body.detail).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ])
  })

  it('keeps app-raised errors as a plain {detail: string}', async () => {
    const res = await sb.request('POST', CHARGE, { auth: AUTH.noProvider, json: { amount: '100' } })
    expect(res.body).toEqual({
      detail: 'User does not have a Provider configured. Please contact support.',
    })
  })
})
