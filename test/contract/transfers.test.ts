// POST /hub/transactions/out: transfers, the balance and its ledger.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SECOND } from '../../src/clock.js'
import { runDue } from '../../src/operations/run-due.js'
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

const MAIN_USER = 'loja-exemplo-user'
const send = (json: Record<string, unknown>, opts: { auth?: string; outcome?: string } = {}) =>
  sb.request('POST', '/api/v1/hub/transactions/out', {
    auth: opts.auth ?? AUTH.main,
    json: { pix_key: 'maria@example.com', pix_type: 'EMAIL', ...json },
    headers: opts.outcome ? { 'x-sandbox-outcome': opts.outcome } : {},
  })
const balance = (user = MAIN_USER) => sb.sandbox.store.ledger.balance(user)
const ledgerSum = (user = MAIN_USER) => sb.sandbox.store.ledger.sumOfEntries(user)
const stored = (id: string) => sb.sandbox.store.transfers.byId(id)

describe('POST /hub/transactions/out', () => {
  it('succeeds, debits the balance and answers exactly status, transaction_id and message', async () => {
    const res = await send({ amount: 2500 })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['message', 'status', 'transaction_id'])
    expect(res.body).toMatchObject({ status: 'success', message: 'Transfer completed' })
    expect(balance()).toBe(1_000_000 - 2500)
    expect(ledgerSum()).toBe(balance())
  })

  it('uses a BCB end-to-end id: E + ISPB + yyyyMMddHHmm (UTC) + 11 characters', async () => {
    const { body } = await send({ amount: 1 })
    expect(body.transaction_id).toMatch(/^E\d{8}202603011200[a-zA-Z0-9]{11}$/)
    expect(body.transaction_id).toHaveLength(32)
  })

  it('refuses an amount above the balance with 422 and records nothing', async () => {
    const before = storeSnapshot(sb)
    const res = await send({ amount: 1_000_001 })
    expect(res).toMatchObject({ status: 422, body: { detail: 'Insufficient balance' } })
    expect(storeSnapshot(sb)).toEqual(before)
    expect(balance()).toBe(1_000_000)
  })

  it('with insufficient_balance: failed, records a failed transfer without debit', async () => {
    sb.apply({ settings: { insufficient_balance: 'failed' } })
    const res = await send({ amount: 100 }, { auth: AUTH.emptyBalance })
    expect(res.body).toMatchObject({ status: 'failed', message: 'Insufficient balance' })
    expect(stored(res.body.transaction_id)?.status).toBe('failed')
    expect(balance('loja-exemplo-empty')).toBe(0)
  })

  it('fails on an inactive key (magic failed@pix.example) without debit', async () => {
    const res = await send({ amount: 100, pix_key: 'failed@pix.example' })
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'failed', message: 'Pix key not found or inactive' },
    })
    expect(balance()).toBe(1_000_000)
  })

  it('accepts unknown keys by default and refuses them with unknown_pix_keys: reject', async () => {
    expect((await send({ amount: 100, pix_key: 'nobody@example.com' })).body.status).toBe('success')
    sb.apply({ settings: { unknown_pix_keys: 'reject' } })
    expect((await send({ amount: 100, pix_key: 'nobody@example.com' })).body).toMatchObject({
      status: 'failed',
      message: 'Pix key not found or inactive',
    })
    expect((await send({ amount: 100, pix_key: 'pending@pix.example' })).body.status).toBe(
      'pending',
    )
  })

  it('checks the balance before the key', async () => {
    const res = await send(
      { amount: 100, pix_key: 'failed@pix.example' },
      { auth: AUTH.emptyBalance },
    )
    expect(res).toMatchObject({ status: 422, body: { detail: 'Insufficient balance' } })
  })

  it('magic amount 666 fails with the receiving institution message, without debit', async () => {
    const res = await send({ amount: 666 })
    expect(res.body).toMatchObject({
      status: 'failed',
      message: 'Transfer rejected by the receiving institution',
    })
    expect(balance()).toBe(1_000_000)
  })

  it('magic amount 777 is pending, debited, then settles failed 30 s later and is refunded', async () => {
    const { body } = await send({ amount: 777 })
    expect(body.status).toBe('pending')
    expect(balance()).toBe(1_000_000 - 777)
    runDue(sb.sandbox, T0 + 29 * SECOND)
    expect(stored(body.transaction_id)?.status).toBe('pending')
    runDue(sb.sandbox, T0 + 30 * SECOND)
    expect(stored(body.transaction_id)?.status).toBe('failed')
    expect(balance()).toBe(1_000_000)
    expect(ledgerSum()).toBe(1_000_000)
  })

  it('magic key pending@pix.example is pending and settles success 60 s later', async () => {
    const { body } = await send({ amount: 300, pix_key: 'pending@pix.example' })
    expect(body.status).toBe('pending')
    runDue(sb.sandbox, T0 + 60 * SECOND)
    expect(stored(body.transaction_id)).toMatchObject({ status: 'success' })
    expect(balance()).toBe(1_000_000 - 300)
  })

  it('lets X-Sandbox-Outcome pick the outcome, over the magic values', async () => {
    expect((await send({ amount: 666 }, { outcome: 'success' })).body.status).toBe('success')
    expect((await send({ amount: 100 }, { outcome: 'failed' })).body.status).toBe('failed')
    expect((await send({ amount: 100 }, { outcome: 'PENDING' })).body.status).toBe('pending')
    expect(await send({ amount: 100 }, { outcome: 'maybe' })).toMatchObject({
      status: 422,
      body: { detail: 'X-Sandbox-Outcome: must be one of success, pending, failed' },
    })
  })

  it('ignores X-Sandbox-Outcome when the scenario turns outcome_header off', async () => {
    sb.apply({ settings: { outcome_header: false } })
    expect((await send({ amount: 100 }, { outcome: 'failed' })).body.status).toBe('success')
    expect((await send({ amount: 100 }, { outcome: 'nonsense' })).status).toBe(200)
  })
})

describe('money under concurrency', () => {
  it('200 concurrent transfers against a balance covering 50 accept exactly 50 and end at 0', async () => {
    sb.apply({ companies: [tenantDoc('race', { balance: 50 * 137 })] })
    const auth = basic('race', 'race-secret')
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => send({ amount: 137 }, { auth })),
    )
    const accepted = replies.filter((r) => r.status === 200 && r.body.status === 'success')
    const refused = replies.filter(
      (r) => r.status === 422 && r.body.detail === 'Insufficient balance',
    )
    expect(accepted).toHaveLength(50)
    expect(refused).toHaveLength(150)
    expect(new Set(accepted.map((r) => r.body.transaction_id)).size).toBe(50)
    expect(balance('race-user')).toBe(0)
    expect(ledgerSum('race-user')).toBe(0)
    const minAfter = sb.sandbox.store.db
      .prepare("SELECT min(balance_after) FROM ledger_entries WHERE user_id = 'race-user'")
      .pluck()
      .get()
    expect(minAfter).toBe(0)
  })
})
