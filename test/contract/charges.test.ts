// POST /hub/transactions/in: creating a charge.
import { parsePix, hasError } from 'pix-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SECOND } from '../../src/clock.js'
import { runDue } from '../../src/operations/run-due.js'
import { parseBrCode } from '../../src/pix/brcode.js'
import { AUTH, startTestSandbox, T0, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox({ publicUrl: 'https://pix.sandbox.test' })))
afterEach(() => sb.close())

const create = (json: unknown, auth = AUTH.main) =>
  sb.request('POST', '/api/v1/hub/transactions/in', { auth, json })

describe('POST /hub/transactions/in', () => {
  it('answers exactly the five fields of the contract', async () => {
    const res = await create({ amount: 1000, description: 'Pedido 1234' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(Object.keys(res.body).sort()).toEqual([
      'expiration_date',
      'qr_code',
      'qr_code_name',
      'status',
      'transaction_id',
    ])
    expect(res.body.status).toBe('pending')
  })

  it('gives a 32-character alphanumeric transaction_id, unique per charge', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const { body } = await create({ amount: 100 + i })
      expect(body.transaction_id).toMatch(/^[a-zA-Z0-9]{32}$/)
      ids.add(body.transaction_id)
    }
    expect(ids.size).toBe(20)
  })

  it('returns a dynamic BR Code with the location, the amount and the company', async () => {
    const { body } = await create({ amount: 123456 })
    const code = parseBrCode(body.qr_code)!
    expect(code.location).toMatch(/^pix\.sandbox\.test\/pix\/qr\/v2\/[a-z0-9]{25}$/)
    expect(code.amount).toBe(123456)
    expect(code.merchantName).toBe('Loja Exemplo Ltda')
    expect(code.merchantCity).toBe('Sao Paulo')
    expect(body.qr_code).toMatch(/^000201010212/)
    expect(body.qr_code).toMatch(/^[\x20-\x7E]{1,512}$/)
  })

  it('returns a code that an independent decoder (pix-utils) accepts', async () => {
    const { body } = await create({ amount: 990 })
    const pix = parsePix(body.qr_code)
    expect(hasError(pix)).toBe(false)
    expect(pix).toMatchObject({
      type: 'DYNAMIC',
      merchantName: 'Loja Exemplo Ltda',
      merchantCity: 'Sao Paulo',
    })
    expect((pix as { url: string }).url).toBe(parseBrCode(body.qr_code)!.location)
  })

  it('gives a unique, short, human-readable qr_code_name', async () => {
    const a = (await create({ amount: 100 })).body.qr_code_name
    const b = (await create({ amount: 100 })).body.qr_code_name
    expect(a).not.toBe(b)
    expect(a.length).toBeLessThanOrEqual(50)
    expect(a).toMatch(/^Loja Exemplo Ltda #\d+$/)
    // Numbered in order of creation, from #1 again in a reset store.
    const number = (name: string) => Number(name.split('#')[1])
    expect(number(b)).toBe(number(a) + 1)
    await sb.admin('POST', '/reset')
    expect((await create({ amount: 100 })).body.qr_code_name).toBe('Loja Exemplo Ltda #1')
  })

  it('expires one hour after creation, in Sao Paulo time, without zone or fraction', async () => {
    sb.clock.set(T0 + 789_123) // 12:00:00.789123Z; Sao Paulo is UTC-3
    const { body } = await create({ amount: 100 })
    expect(body.expiration_date).toBe('2026-03-01T10:00:00')
    const stored = sb.sandbox.store.charges.byId(body.transaction_id)!
    expect(stored.expiresAt).toBe(T0 + 3600 * SECOND)
  })

  it('follows the scenario lifetime and time zone', async () => {
    sb.apply({ settings: { charge_ttl_seconds: 90, timezone: 'UTC' } })
    expect((await create({ amount: 100 })).body.expiration_date).toBe('2026-03-01T12:01:30')
  })

  it('stays pending one second before expiry and is cancelled at it', async () => {
    const { body } = await create({ amount: 100 })
    runDue(sb.sandbox, T0 + 3599 * SECOND)
    expect(sb.sandbox.store.charges.byId(body.transaction_id)?.status).toBe('pending')
    runDue(sb.sandbox, T0 + 3600 * SECOND)
    expect(sb.sandbox.store.charges.byId(body.transaction_id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'expired',
    })
  })

  it('magic amount 4242 is paid 5 s later and credits the balance once', async () => {
    const balance = () => sb.sandbox.store.ledger.balance('loja-exemplo-user')
    const before = balance()!
    const { body } = await create({ amount: 4242 })
    runDue(sb.sandbox, T0 + 4 * SECOND)
    expect(sb.sandbox.store.charges.byId(body.transaction_id)?.status).toBe('pending')
    // The payer is a fake one: faker loads on first need, and due work waits for it.
    expect(sb.sandbox.fakes.loaded).toBe(false)
    expect(runDue(sb.sandbox, T0 + 5 * SECOND)).toEqual([])
    expect(sb.sandbox.store.charges.byId(body.transaction_id)?.status).toBe('pending')
    await sb.sandbox.fakes.ready()
    const events = runDue(sb.sandbox, T0 + 5 * SECOND)
    expect(events.map((e) => e.type)).toEqual(['balance.changed', 'charge.paid'])
    expect(sb.sandbox.store.charges.byId(body.transaction_id)?.status).toBe('paid')
    expect(balance()).toBe(before + 4242)
    runDue(sb.sandbox, T0 + 60 * SECOND)
    expect(balance()).toBe(before + 4242)
  })
})
