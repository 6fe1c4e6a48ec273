// docs/CONTRACT.md's "Where the contract is silent" table, the rows no other test pins down: each
// test fails when the sandbox's choice changes.
import http from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SECOND } from '../../src/clock.js'
import { runDue } from '../../src/operations/run-due.js'
import { parseBrCode } from '../../src/pix/brcode.js'
import { AUTH, basic, startTestSandbox, T0, tenantDoc, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const CHARGE = '/api/v1/hub/transactions/in'
const TRANSFER = '/api/v1/hub/transactions/out'
const charge = (json: unknown, auth = AUTH.main) => sb.request('POST', CHARGE, { auth, json })
const transfer = (
  json: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  auth = AUTH.main,
) =>
  sb.request('POST', TRANSFER, {
    auth,
    headers,
    json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL', ...json },
  })
const balance = () => sb.sandbox.store.ledger.balance('loja-exemplo-user')!

describe('Basic token', () => {
  it('requires base64 padding: the same token without its "=" is a 401', async () => {
    const padded = Buffer.from('sandbox-client:sandbox-secret').toString('base64')
    expect(padded.endsWith('=')).toBe(true)
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: `Basic ${padded}` })).status,
    ).toBe(200)
    const res = await sb.request('GET', '/api/v1/user/company', {
      auth: `Basic ${padded.replace(/=+$/, '')}`,
    })
    expect(res).toMatchObject({ status: 401, body: { detail: 'Not authenticated' } })
  })
})

describe('check order', () => {
  it('an inactive company whose user also lacks the permission gets the inactive-company 403', async () => {
    sb.apply({
      companies: [
        tenantDoc('sleepy', { apiActive: false, permissions: ['charge'], balance: 10_000 }),
      ],
    })
    const res = await transfer({}, {}, basic('sleepy', 'sleepy-secret'))
    expect(res).toMatchObject({
      status: 403,
      body: { detail: 'API access is not active for this company' },
    })
  })
})

describe('faults', () => {
  it('strike right after authentication: after the JSON check and the 401, before the permission and the schema', async () => {
    sb.apply({ companies: [tenantDoc('no-perm', { permissions: [] })] })
    const noPerm = basic('no-perm', 'no-perm-secret')
    expect(
      (
        await sb.request('POST', '/_sandbox/faults', {
          auth: noPerm,
          json: { operation: 'charge', status: 503 },
        })
      ).status,
    ).toBe(201)
    const raw = (body: string) => ({
      auth: noPerm,
      body,
      headers: { 'content-type': 'application/json' },
    })
    expect((await sb.request('POST', CHARGE, raw('{"amount":'))).status).toBe(422)
    expect((await charge({ amount: 100 }, basic('no-perm', 'wrong'))).status).toBe(401)
    // Authenticated: the fault wins over both the missing permission and the invalid body.
    expect(await charge({ amount: -1 }, noPerm)).toMatchObject({
      status: 503,
      body: { detail: 'Service temporarily unavailable' },
    })
  })
})

describe('charges', () => {
  it("carry the scenario's city in the BR Code, folded to ASCII and cut to 15 characters", async () => {
    sb.apply({
      companies: [
        { ...tenantDoc('sjc', { permissions: ['charge'] }), city: 'São José dos Campos' },
      ],
    })
    const { body } = await charge({ amount: 100 }, basic('sjc', 'sjc-secret'))
    expect(parseBrCode(body.qr_code)!.merchantCity).toBe('Sao Jose dos Ca')
  })

  it('name qr_code_name after the merchant name cut to 25 characters: at most 39 in all', async () => {
    const name = `Comércio ${'Muito Longo '.repeat(7)}`.trim()
    sb.apply({ companies: [{ ...tenantDoc('long', { permissions: ['charge'] }), name }] })
    const { body } = await charge({ amount: 100 }, basic('long', 'long-secret'))
    expect(body.qr_code_name).toMatch(/^Comercio Muito Longo Muit #\d+$/)
    expect(body.qr_code_name.length).toBeLessThanOrEqual(39)
    expect(parseBrCode(body.qr_code)!.merchantName).toBe('Comercio Muito Longo Muit')
  })

  it('get ids that sort (as plain strings) in creation order', async () => {
    const ids: string[] = []
    // Steps from a microsecond to an hour, so every digit of the time prefix gets to carry.
    for (const step of [1, 1, 7, 999, 1000, 61_000, SECOND, 59 * SECOND, 3600 * SECOND, 1, 1]) {
      sb.clock.set(sb.clock.now() + step)
      ids.push((await charge({ amount: 100 })).body.transaction_id)
    }
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('expire rather than auto-pay when both fall due at the same instant', async () => {
    sb.apply({
      settings: { charge_ttl_seconds: 10 },
      rules: {
        charges: [
          { when: { amount: 1010 }, then: { auto_pay_after_seconds: 10 } },
          { when: { amount: 909 }, then: { auto_pay_after_seconds: 9 } },
        ],
      },
    })
    await sb.sandbox.fakes.ready()
    const before = balance()
    const tie = (await charge({ amount: 1010 })).body.transaction_id
    const earlier = (await charge({ amount: 909 })).body.transaction_id
    runDue(sb.sandbox, T0 + 10 * SECOND)
    expect(sb.sandbox.store.charges.byId(tie)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'expired',
      paidAt: null,
    })
    // The rule itself works: a second earlier, the payment is made.
    expect(sb.sandbox.store.charges.byId(earlier)).toMatchObject({
      status: 'paid',
      paidAt: T0 + 9 * SECOND,
    })
    expect(balance()).toBe(before + 909)
  })
})

describe('transfers', () => {
  it('answer the default message of each status', async () => {
    expect((await transfer()).body).toMatchObject({
      status: 'success',
      message: 'Transfer completed',
    })
    expect((await transfer({}, { 'x-sandbox-outcome': 'pending' })).body).toMatchObject({
      status: 'pending',
      message: 'Transfer is being processed',
    })
    expect((await transfer({}, { 'x-sandbox-outcome': 'failed' })).body).toMatchObject({
      status: 'failed',
      message: 'Transfer failed',
    })
  })

  it('settle with the default message of the final status', async () => {
    for (const status of ['success', 'failed'] as const) {
      const { transaction_id } = (await transfer({}, { 'x-sandbox-outcome': 'pending' })).body
      const settled = await sb.admin('POST', `/transfers/${transaction_id}/settle`, { status })
      expect(settled.body).toMatchObject({
        status,
        message: status === 'success' ? 'Transfer completed' : 'Transfer failed',
      })
    }
  })

  it('decide the key before the outcome, and a queued outcome before a rule', async () => {
    const inactiveKey = await transfer(
      { pix_key: 'failed@pix.example' },
      { 'x-sandbox-outcome': 'success' },
    )
    expect(inactiveKey.body).toMatchObject({
      status: 'failed',
      message: 'Pix key not found or inactive',
    })
    await sb.admin('POST', '/outcomes', { status: 'success', match: { amount: 666 } })
    expect((await transfer({ amount: 666 })).body).toMatchObject({
      status: 'success',
      message: 'Transfer completed',
    })
    // Used up: the rule applies again.
    expect((await transfer({ amount: 666 })).body).toMatchObject({
      status: 'failed',
      message: 'Transfer rejected by the receiving institution',
    })
  })

  it('chosen pending by the header wait for the control plane: time alone never settles them', async () => {
    const before = balance()
    const { transaction_id } = (await transfer({ amount: 500 }, { 'x-sandbox-outcome': 'pending' }))
      .body
    expect(runDue(sb.sandbox, T0 + 10 * 365 * 86_400 * SECOND)).toEqual([])
    expect(sb.sandbox.store.transfers.byId(transaction_id)).toMatchObject({
      status: 'pending',
      settleAt: null,
    })
    expect(balance()).toBe(before - 500)
    expect(
      (await sb.admin('POST', `/transfers/${transaction_id}/settle`, { status: 'failed' })).body
        .status,
    ).toBe('failed')
    expect(balance()).toBe(before)
  })
})

describe('PIX keys', () => {
  // The check-digit validators ignore anything that is not a digit: the shape is checked apart.
  it.each([
    ['CPF', '52998224725', 'must be a CPF of 11 digits with valid check digits'],
    ['CNPJ', '11222333000181', 'must be a CNPJ of 14 digits with valid check digits'],
  ])('a %s is its digits and nothing else', async (pix_type, key, reason) => {
    expect((await transfer({ pix_key: key, pix_type })).status).toBe(200)
    for (const bad of [`x${key}`, `${key}x`, `${key.slice(0, 3)}.${key.slice(3)}`]) {
      expect(await transfer({ pix_key: bad, pix_type }), bad).toMatchObject({
        status: 422,
        body: { detail: `pix_key: ${reason}` },
      })
    }
  })
})

describe('413', () => {
  it('closes the connection: the rest of the upload is never read', async () => {
    const agent = new http.Agent({ keepAlive: true })
    try {
      const { headers, closed } = await new Promise<{
        headers: http.IncomingHttpHeaders
        closed: Promise<void>
      }>((resolve, reject) => {
        const req = http.request(sb.url + CHARGE, {
          method: 'POST',
          agent,
          headers: {
            authorization: AUTH.main,
            'content-type': 'application/json',
            'content-length': String(2 * 1024 * 1024),
          },
        })
        req.on('error', () => undefined)
        req.on('response', (res) => {
          res.resume()
          resolve({
            headers: res.headers,
            closed: new Promise((r) =>
              req.socket!.destroyed ? r() : req.socket!.once('close', () => r()),
            ),
          })
        })
        req.on('socket', (s) => s.on('error', reject))
        req.flushHeaders()
      })
      expect(headers.connection).toBe('close')
      // The server hangs up on its own (the test's timeout is the deadline).
      await closed
    } finally {
      agent.destroy()
    }
  })
})
