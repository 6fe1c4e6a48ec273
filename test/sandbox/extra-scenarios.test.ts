// The scenarios beyond the default one do what their descriptions say.
import { afterEach, describe, expect, it } from 'vitest'
import { basic, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox | undefined
afterEach(() => sb?.close())

describe('unreliable-transfers', () => {
  it('large amounts hang then fail, PHONE fails, CPF settles later, unknown keys are refused', async () => {
    sb = await startTestSandbox({ scenario: 'unreliable-transfers' })
    const auth = basic('unreliable-client', 'unreliable-secret')
    const send = (amount: number, pix_key: string, pix_type: string) =>
      sb!.request('POST', '/api/v1/hub/transactions/out', {
        auth,
        json: { amount, pix_key, pix_type },
      })
    const big = (await send(2_000_000, 'fornecedor@pix.example', 'EMAIL')).body
    expect(big.status).toBe('pending')
    expect((await send(100, '+5511987654321', 'PHONE')).body).toMatchObject({
      status: 'failed',
      message: 'Receiving institution unavailable',
    })
    expect((await send(100, '52998224725', 'CPF')).body.status).toBe('pending')
    expect((await send(100, 'stranger@example.com', 'EMAIL')).body).toMatchObject({
      status: 'failed',
      message: 'Pix key not found or inactive',
    })
    const events = (await sb.admin('POST', '/clock/advance', { seconds: 120 })).body.events.map(
      (e: { type: string }) => e.type,
    )
    expect(events.filter((t: string) => t.startsWith('transfer.'))).toEqual([
      'transfer.succeeded',
      'transfer.failed',
    ])
    expect((await sb.admin('GET', `/transfers/${big.transaction_id}`)).body).toMatchObject({
      status: 'failed',
      message: 'Transfer timed out at the receiving institution',
    })
  })
})

describe('short-lived-charges', () => {
  it('[pay] is paid after 3 s, [cancel] cancelled after 10 s, the rest expire at 60 s, in UTC', async () => {
    sb = await startTestSandbox({ scenario: 'short-lived-charges' })
    const auth = basic('short-lived', 'short-lived-secret')
    const create = (description: string) =>
      sb!.request('POST', '/api/v1/hub/transactions/in', {
        auth,
        json: { amount: 500, description },
      })
    const plain = (await create('plain')).body
    expect(plain.expiration_date).toBe('2026-03-01T12:01:00')
    await create('order 1 [pay]')
    await create('order 2 [cancel]')
    const events = (await sb.admin('POST', '/clock/advance', { seconds: 60 })).body.events
    const timeline = events
      .filter((e: { type: string }) => e.type.startsWith('charge.'))
      .map((e: { at: string; type: string; data: { reason?: string } }) =>
        `${e.at.slice(11, 19)} ${e.type} ${e.data.reason ?? ''}`.trim(),
      )
    expect(timeline).toEqual([
      '12:00:03 charge.paid',
      '12:00:10 charge.cancelled cancelled',
      '12:01:00 charge.cancelled expired',
    ])
  })
})

describe('many-users', () => {
  it('each seller has its own balance and rights, and the other company is isolated', async () => {
    sb = await startTestSandbox({ scenario: 'many-users' })
    const transfer = (id: string) =>
      sb!.request('POST', '/api/v1/hub/transactions/out', {
        auth: basic(id, `${id}-secret`),
        json: { amount: 2000, pix_key: 'a@b.co', pix_type: 'EMAIL' },
      })
    expect((await transfer('seller-1')).body.status).toBe('success')
    expect((await transfer('seller-2')).body.detail).toBe('Insufficient balance')
    expect((await transfer('seller-3')).status).toBe(403)
    expect((await transfer('seller-4')).status).toBe(422)
    expect((await transfer('seller-5')).status).toBe(401)
    const other = basic('other-client', 'other-secret')
    expect((await sb.request('GET', '/_sandbox/transfers', { auth: other })).body.data).toEqual([])
  })
})
