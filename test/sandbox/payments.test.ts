// Paying charges through the control plane: by id, by copy-and-paste code, by Provider notification.
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SECOND } from '../../src/clock.js'
import { buildDynamicCode } from '../../src/pix/brcode.js'
import {
  AUTH,
  basic,
  storeSnapshot,
  startTestSandbox,
  T0,
  tenantDoc,
  type TestSandbox,
} from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const USER = 'loja-exemplo-user'
const balance = () => sb.sandbox.store.ledger.balance(USER)!
const newCharge = async (json: Record<string, unknown> = { amount: 1500 }) =>
  (await sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json })).body
const STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

describe('POST /_sandbox/charges/{id}/pay', () => {
  it('marks the charge paid with an end-to-end id and a payer, and credits the balance', async () => {
    const c = await newCharge()
    const before = balance()
    const res = await sb.admin('POST', `/charges/${c.transaction_id}/pay`, {
      payer: { name: 'Maria Souza', document: '52998224725' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'paid',
      payer: { name: 'Maria Souza', document: '52998224725' },
      paid_at: '2026-03-01T12:00:00.000000Z',
    })
    expect(res.body.end_to_end_id).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/)
    expect(balance()).toBe(before + 1500)
  })

  it('makes up a payer (a valid CPF) when none is given', async () => {
    for (let i = 0; i < 5; i++) {
      const c = await newCharge()
      const res = await sb.admin('POST', `/charges/${c.transaction_id}/pay`)
      expect(res.body.payer.name.length).toBeGreaterThan(3)
      expect(res.body.payer.document).toMatch(/^\d{11}$/)
      // Check digits verified by the library, not by the code that made them up.
      expect(isValidCpf(res.body.payer.document), res.body.payer.document).toBe(true)
    }
  })

  it('answers 409 for a paid or cancelled charge and credits nothing more', async () => {
    const c = await newCharge()
    await sb.admin('POST', `/charges/${c.transaction_id}/pay`)
    const after = balance()
    expect(await sb.admin('POST', `/charges/${c.transaction_id}/pay`)).toMatchObject({
      status: 409,
      body: { detail: 'Charge is paid' },
    })
    const d = await newCharge()
    await sb.admin('POST', `/charges/${d.transaction_id}/cancel`)
    expect(await sb.admin('POST', `/charges/${d.transaction_id}/pay`)).toMatchObject({
      status: 409,
      body: { detail: 'Charge is cancelled' },
    })
    expect(balance()).toBe(after)
  })

  it('credits once when two payments of the same charge race', async () => {
    const c = await newCharge()
    const before = balance()
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => sb.admin('POST', `/charges/${c.transaction_id}/pay`)),
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 409)).toHaveLength(9)
    expect(balance()).toBe(before + 1500)
  })

  it('404 for an unknown charge, 422 for a bad payer, state unchanged', async () => {
    const c = await newCharge()
    const before = storeSnapshot(sb)
    expect((await sb.admin('POST', '/charges/nope/pay')).status).toBe(404)
    expect(
      (
        await sb.admin('POST', `/charges/${c.transaction_id}/pay`, {
          payer: { name: 'X', document: '123' },
        })
      ).status,
    ).toBe(422)
    expect(
      (await sb.admin('POST', `/charges/${c.transaction_id}/pay`, { payer: 'Maria' })).status,
    ).toBe(422)
    expect(storeSnapshot(sb)).toEqual(before)
  })
})

describe('expire and cancel', () => {
  it('cancel gives cancelled with reason cancelled; expire with reason expired; 409 after', async () => {
    const a = await newCharge()
    const b = await newCharge()
    expect((await sb.admin('POST', `/charges/${a.transaction_id}/cancel`)).body).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'cancelled',
    })
    expect((await sb.admin('POST', `/charges/${b.transaction_id}/expire`)).body).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'expired',
    })
    expect((await sb.admin('POST', `/charges/${a.transaction_id}/expire`)).status).toBe(409)
    expect((await sb.admin('POST', `/charges/${b.transaction_id}/cancel`)).status).toBe(409)
  })
})

describe('the clock boundary of a charge', () => {
  it('one second before expiration_date the charge is pending and payable; at it, cancelled and paying is 409', async () => {
    const a = await newCharge()
    const b = await newCharge()
    sb.clock.set(T0 + 3599 * SECOND)
    expect((await sb.admin('GET', `/charges/${a.transaction_id}`)).body.status).toBe('pending')
    expect((await sb.admin('POST', `/charges/${a.transaction_id}/pay`)).status).toBe(200)
    const before = balance()
    const advanced = await sb.admin('POST', '/clock/advance', { seconds: 1 })
    expect(advanced.body.events.map((e: { type: string }) => e.type)).toEqual(['charge.cancelled'])
    expect((await sb.admin('GET', `/charges/${b.transaction_id}`)).body).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'expired',
    })
    expect(await sb.admin('POST', `/charges/${b.transaction_id}/pay`)).toMatchObject({
      status: 409,
    })
    expect(balance()).toBe(before)
  })

  it('a charge past its expiry that the ticker has not swept yet is still not payable', async () => {
    const a = await newCharge()
    sb.clock.set(T0 + 3600 * SECOND)
    expect(await sb.admin('POST', `/charges/${a.transaction_id}/pay`)).toMatchObject({
      status: 409,
      body: { detail: 'Charge is expired' },
    })
  })
})

describe("POST /_sandbox/pay (a payer's bank with a copy-and-paste code)", () => {
  it('finds a dynamic charge through its location', async () => {
    const c = await newCharge({ amount: 2222 })
    const res = await sb.admin('POST', '/pay', { qr_code: c.qr_code })
    expect(res).toMatchObject({
      status: 200,
      body: { transaction_id: c.transaction_id, status: 'paid' },
    })
    expect(await sb.admin('POST', '/pay', { qr_code: c.qr_code })).toMatchObject({ status: 409 })
  })

  it('finds a charge that reused a code by the newest pending charge with exactly that code', async () => {
    const first = await newCharge({ amount: 300, payload: STATIC })
    const second = await newCharge({ amount: 400, payload: STATIC })
    expect((await sb.admin('POST', '/pay', { qr_code: STATIC })).body.transaction_id).toBe(
      second.transaction_id,
    )
    expect((await sb.admin('POST', '/pay', { qr_code: STATIC })).body.transaction_id).toBe(
      first.transaction_id,
    )
    expect((await sb.admin('POST', '/pay', { qr_code: STATIC })).status).toBe(404)
  })

  it('422 for an invalid code, 404 for a valid code no charge carries', async () => {
    expect(await sb.admin('POST', '/pay', { qr_code: 'not a code' })).toMatchObject({
      status: 422,
      body: { detail: 'qr_code: must be a valid BR Code (format and CRC)' },
    })
    const foreign = buildDynamicCode({
      location: 'elsewhere.example/qr/abc',
      amount: 100,
      merchantName: 'X',
      merchantCity: 'Y',
    })
    expect(await sb.admin('POST', '/pay', { qr_code: foreign })).toMatchObject({
      status: 404,
      body: { detail: 'No charge for this code' },
    })
  })

  it("with company credentials, pays only that company's charges", async () => {
    const c = await newCharge()
    expect(
      (await sb.request('POST', '/_sandbox/pay', { auth: AUTH.main, json: { qr_code: c.qr_code } }))
        .status,
    ).toBe(200)
    sb.apply({ companies: [tenantDoc('other')] })
    const d = await newCharge()
    expect(
      (
        await sb.request('POST', '/_sandbox/pay', {
          auth: basic('other', 'other-secret'),
          json: { qr_code: d.qr_code },
        })
      ).status,
    ).toBe(404)
    expect(sb.sandbox.store.charges.byId(d.transaction_id)?.status).toBe('pending')
  })
})

describe('POST /_sandbox/pay with a static code two companies reused', () => {
  const OTHER = basic('other', 'other-secret')
  const reuse = async (auth: string, amount: number) =>
    (
      await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth,
        json: { amount, payload: STATIC },
      })
    ).body.transaction_id as string
  beforeEach(() => sb.apply({ companies: [tenantDoc('other')] }))

  it('a company pays only its own charge, never the newer one of another company', async () => {
    const mine = await reuse(AUTH.main, 300)
    const theirs = await reuse(OTHER, 400)
    const res = await sb.request('POST', '/_sandbox/pay', {
      auth: AUTH.main,
      json: { qr_code: STATIC },
    })
    expect(res).toMatchObject({ status: 200, body: { transaction_id: mine, status: 'paid' } })
    expect(sb.sandbox.store.charges.byId(theirs)?.status).toBe('pending')
    expect(
      await sb.request('POST', '/_sandbox/pay', { auth: AUTH.main, json: { qr_code: STATIC } }),
    ).toMatchObject({ status: 404, body: { detail: 'No charge for this code' } })
    expect(
      await sb.request('POST', '/_sandbox/pay', {
        auth: AUTH.main,
        json: { qr_code: STATIC, transaction_id: theirs },
      }),
    ).toMatchObject({ status: 404 })
    expect(sb.sandbox.store.charges.byId(theirs)?.status).toBe('pending')
  })

  it('the admin is refused an ambiguous code (409 listing the candidates) unless it names the charge', async () => {
    const older = await reuse(AUTH.main, 300)
    const mine = await reuse(AUTH.main, 350)
    const theirs = await reuse(OTHER, 400)
    const before = storeSnapshot(sb)
    const refused = await sb.admin('POST', '/pay', { qr_code: STATIC })
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toBe(
      `Pending charges of several companies carry this code; name the one to pay with transaction_id: ${theirs}, ${mine}`,
    )
    expect(storeSnapshot(sb)).toEqual(before)
    expect(
      await sb.admin('POST', '/pay', { qr_code: STATIC, transaction_id: older }),
    ).toMatchObject({ status: 200, body: { transaction_id: older, status: 'paid' } })
    expect(
      await sb.admin('POST', '/pay', { qr_code: STATIC, transaction_id: older }),
    ).toMatchObject({ status: 409, body: { detail: 'Charge is paid' } })
    expect(
      (await sb.admin('POST', '/pay', { qr_code: STATIC, transaction_id: 'no-such-charge' }))
        .status,
    ).toBe(404)
    await sb.admin('POST', `/charges/${mine}/cancel`)
    // Only one company's charge is left pending: no longer ambiguous.
    expect(await sb.admin('POST', '/pay', { qr_code: STATIC })).toMatchObject({
      status: 200,
      body: { transaction_id: theirs },
    })
  })
})

describe('POST /_sandbox/provider-webhook (BCB API Pix notification)', () => {
  const item = (txid: string, valor: string, e2e = 'E18236120202603011200s0123456789') => ({
    endToEndId: e2e,
    txid,
    valor,
    horario: '2026-03-01T12:00:00.000Z',
    pagador: { nome: 'Joao', cpf: '52998224725' },
  })

  it('pays the charge named by txid with the given endToEndId and payer', async () => {
    const c = await newCharge({ amount: 1050 })
    const res = await sb.admin('POST', '/provider-webhook', {
      pix: [item(c.transaction_id, '10.50')],
    })
    expect(res.status).toBe(200)
    expect(res.body.data[0]).toMatchObject({
      duplicate: false,
      charge: {
        status: 'paid',
        end_to_end_id: 'E18236120202603011200s0123456789',
        payer: { name: 'Joao', document: '52998224725' },
      },
    })
  })

  it('treats a repeated notification as a duplicate that credits nothing', async () => {
    const c = await newCharge({ amount: 1050 })
    await sb.admin('POST', '/provider-webhook', { pix: [item(c.transaction_id, '10.50')] })
    const after = balance()
    const again = await sb.admin('POST', '/provider-webhook', {
      pix: [item(c.transaction_id, '10.50')],
    })
    expect(again.body.data[0].duplicate).toBe(true)
    expect(balance()).toBe(after)
  })

  it('bounds what a notification stores: a payer name over 140 characters or a malformed CPF is a 422 that writes nothing', async () => {
    const c = await newCharge({ amount: 100 })
    const before = storeSnapshot(sb)
    for (const pagador of [
      { nome: 'x'.repeat(141), cpf: '52998224725' },
      { nome: 'Joao', cpf: '5299822472X' },
    ]) {
      const res = await sb.admin('POST', '/provider-webhook', {
        pix: [{ ...item(c.transaction_id, '1.00'), pagador }],
      })
      expect(res.status).toBe(422)
      expect(res.body.detail).toMatch(/^pix\.0\.pagador\.(nome|cpf): /)
    }
    expect(storeSnapshot(sb)).toEqual(before)
  })

  it('applies a notification whole or not at all', async () => {
    const a = await newCharge({ amount: 100 })
    const before = storeSnapshot(sb)
    const res = await sb.admin('POST', '/provider-webhook', {
      pix: [
        item(a.transaction_id, '1.00', 'E18236120202603011200aaaaaaaaaaa'),
        item('unknown-txid', '1.00', 'E18236120202603011200bbbbbbbbbbb'),
      ],
    })
    expect(res).toMatchObject({
      status: 404,
      body: { detail: 'pix[1]: no charge with txid "unknown-txid"' },
    })
    expect(sb.sandbox.store.charges.byId(a.transaction_id)?.status).toBe('pending')
    expect(storeSnapshot(sb)).toEqual(before)
  })

  it("tells a company nothing of another company's end-to-end ids", async () => {
    sb.apply({ companies: [tenantDoc('other')] })
    const OTHER = basic('other', 'other-secret')
    const theirs = (
      await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth: OTHER,
        json: { amount: 100 },
      })
    ).body
    await sb.request('POST', '/_sandbox/provider-webhook', {
      auth: OTHER,
      json: { pix: [item(theirs.transaction_id, '1.00')] },
    })
    const mine = await newCharge({ amount: 100 })
    const res = await sb.request('POST', '/_sandbox/provider-webhook', {
      auth: AUTH.main,
      json: { pix: [item(mine.transaction_id, '1.00')] },
    })
    expect(res).toMatchObject({
      status: 200,
      body: {
        data: [
          {
            duplicate: false,
            charge: { status: 'paid', end_to_end_id: 'E18236120202603011200s0123456789' },
          },
        ],
      },
    })
    expect(res.text).not.toContain(theirs.transaction_id)
    expect(res.text).not.toContain('other')
    // Within one company an end-to-end id still pays one charge only.
    const again = await newCharge({ amount: 100 })
    const conflict = await sb.request('POST', '/_sandbox/provider-webhook', {
      auth: AUTH.main,
      json: { pix: [item(again.transaction_id, '1.00')] },
    })
    expect(conflict).toMatchObject({
      status: 409,
      body: {
        detail:
          'endToEndId E18236120202603011200s0123456789 already paid another charge of this company',
      },
    })
  })

  it('refuses an amount that differs, and a malformed notification', async () => {
    const c = await newCharge({ amount: 100 })
    expect(
      await sb.admin('POST', '/provider-webhook', { pix: [item(c.transaction_id, '1.01')] }),
    ).toMatchObject({ status: 422, body: { detail: 'valor 1.01 differs from the charge amount' } })
    expect((await sb.admin('POST', '/provider-webhook', { pix: [] })).status).toBe(422)
    expect(
      (await sb.admin('POST', '/provider-webhook', { pix: [{ txid: c.transaction_id }] })).status,
    ).toBe(422)
    expect(sb.sandbox.store.charges.byId(c.transaction_id)?.status).toBe('pending')
  })
})
