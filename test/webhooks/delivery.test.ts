// Webhooks (docs/WEBHOOKS.md): deliveries to a real receiver on loopback, verified with the standardwebhooks package.
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import { startReceiver, type Receiver } from './receiver.js'
import { recorded } from './settle.js'

let sb: TestSandbox
let rx: Receiver
beforeEach(async () => {
  sb = await startTestSandbox()
  rx = await startReceiver()
})
afterEach(async () => {
  await sb.close()
  await rx.close()
})

const charge = async (amount = 1000) =>
  (await sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json: { amount } }))
    .body
const pay = (id: string) =>
  sb.admin('POST', `/charges/${id}/pay`, {
    payer: { name: 'Maria Souza', document: '52998224725' },
  })
const deliveries = async (query = '') =>
  (await sb.admin('GET', `/webhooks/deliveries${query}`)).body.data

describe('standard format', () => {
  it('delivers charge.paid signed so that the standardwebhooks package verifies it', async () => {
    const sub = (await sb.admin('POST', '/webhooks', { url: `${rx.url}/hooks` })).body
    expect(sub.secret).toMatch(/^whsec_/)
    const c = await charge(1999)
    await pay(c.transaction_id)
    const [msg] = await rx.waitFor(1)
    expect(msg!.path).toBe('/hooks')
    const verified = new Webhook(sub.secret).verify(msg!.body, {
      'webhook-id': msg!.headers['webhook-id'] as string,
      'webhook-timestamp': msg!.headers['webhook-timestamp'] as string,
      'webhook-signature': msg!.headers['webhook-signature'] as string,
    }) as { type: string; timestamp: string; data: Record<string, unknown> }
    expect(verified).toMatchObject({
      type: 'charge.paid',
      timestamp: '2026-03-01T12:00:00.000Z',
      data: {
        transaction_id: c.transaction_id,
        amount: 1999,
        company_id: 'loja-exemplo',
        payer: { name: 'Maria Souza' },
      },
    })
    expect(msg!.headers['webhook-id']).toMatch(/^evt_/)
  })

  it('transfer.* webhooks carry what was sent (amount, pix_key, pix_type, description), at creation and at settlement', async () => {
    await sb.admin('POST', '/webhooks', {
      url: rx.url,
      events: ['transfer.pending', 'transfer.succeeded'],
    })
    const sent = {
      amount: 1500,
      pix_key: 'pending@pix.example',
      pix_type: 'EMAIL',
      description: 'Pedido 42',
    }
    const t = (
      await sb.request('POST', '/api/v1/hub/transactions/out', { auth: AUTH.main, json: sent })
    ).body
    await sb.admin('POST', `/transfers/${t.transaction_id}/settle`, { status: 'success' })
    const messages = await rx.waitFor(2)
    expect(messages.map((m) => m.json)).toEqual([
      {
        type: 'transfer.pending',
        timestamp: expect.any(String),
        data: {
          transaction_id: t.transaction_id,
          ...sent,
          status: 'pending',
          message: t.message,
          company_id: 'loja-exemplo',
        },
      },
      {
        type: 'transfer.succeeded',
        timestamp: expect.any(String),
        data: {
          transaction_id: t.transaction_id,
          ...sent,
          status: 'success',
          message: expect.any(String),
          company_id: 'loja-exemplo',
        },
      },
    ])
  })

  it('delivers only the subscribed event types of the subscribed company', async () => {
    await sb.admin('POST', '/webhooks', {
      url: rx.url,
      events: ['transfer.failed'],
      company_id: 'loja-exemplo',
    })
    await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 666, pix_key: 'a@b.co', pix_type: 'EMAIL' },
    })
    await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 100, pix_key: 'a@b.co', pix_type: 'EMAIL' },
    })
    await pay((await charge()).transaction_id)
    await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.inactive,
      json: { amount: 666, pix_key: 'a@b.co', pix_type: 'EMAIL' },
    })
    // Deliveries are queued in the transaction of their event: this list is complete.
    expect((await deliveries()).map((d: { event_type: string }) => d.event_type)).toEqual([
      'transfer.failed',
    ])
    await recorded(sb, 1)
    expect(rx.received.map((m) => m.json.type)).toEqual(['transfer.failed'])
  })

  it('a receiver failing twice gets the message on the third attempt, same id each time', async () => {
    sb.apply({ settings: { webhook_retry_seconds: [1, 2, 4] } })
    rx.script.push({ status: 500 }, { status: 503 })
    await sb.admin('POST', '/webhooks', { url: rx.url })
    await pay((await charge()).transaction_id)
    await recorded(sb, 1)
    await sb.admin('POST', '/clock/advance', { seconds: 1.2 })
    await sb.admin('POST', '/clock/advance', { seconds: 2.5 })
    expect(rx.received).toHaveLength(3)
    expect(new Set(rx.received.map((m) => m.headers['webhook-id'])).size).toBe(1)
    const [d] = await deliveries()
    expect(d).toMatchObject({ status: 'delivered', event_type: 'charge.paid' })
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 503, 200])
    expect(d.attempts[0].error).toBe('the receiver answered 500')
    expect(d.attempts.every((a: { latency_ms: number }) => a.latency_ms >= 0)).toBe(true)
  })

  it('retries on the schedule with at most 10% jitter, then gives up', async () => {
    sb.apply({ settings: { webhook_retry_seconds: [10, 20] } })
    rx.fallback = { status: 500 }
    await sb.admin('POST', '/webhooks', { url: rx.url })
    await pay((await charge()).transaction_id)
    await recorded(sb, 1)
    await sb.admin('POST', '/clock/advance', { seconds: 9.9 })
    expect(rx.received).toHaveLength(1)
    const [pending] = await deliveries()
    const wait = (Date.parse(pending.next_attempt_at) - Date.parse('2026-03-01T12:00:00Z')) / 1000
    expect(wait).toBeGreaterThanOrEqual(10)
    expect(wait).toBeLessThanOrEqual(11)
    await sb.admin('POST', '/clock/advance', { seconds: 1.2 })
    expect(rx.received).toHaveLength(2)
    await sb.admin('POST', '/clock/advance', { seconds: 23 })
    expect(rx.received).toHaveLength(3)
    const [failed] = await deliveries()
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null })
  })

  it('honours Retry-After', async () => {
    rx.script.push({ status: 429, headers: { 'retry-after': '120' } })
    await sb.admin('POST', '/webhooks', { url: rx.url })
    await pay((await charge()).transaction_id)
    const [d] = await recorded(sb, 1)
    expect(d.next_attempt_at).toBe('2026-03-01T12:02:00.000000Z')
    await sb.admin('POST', '/clock/advance', { seconds: 119 })
    expect(rx.received).toHaveLength(1)
    await sb.admin('POST', '/clock/advance', { seconds: 1 })
    expect(rx.received).toHaveLength(2)
  })

  it('Retry-After cannot add attempts: its value is clamped to the schedule, which alone counts them', async () => {
    sb.apply({ settings: { webhook_retry_seconds: [1, 2] } })
    rx.script.push({ status: 503, headers: { 'retry-after': '86400' } })
    rx.fallback = { status: 503, headers: { 'retry-after': '0' } }
    await sb.admin('POST', '/webhooks', { url: rx.url })
    await pay((await charge()).transaction_id)
    const [first] = await recorded(sb, 1)
    expect(first.next_attempt_at).toBe('2026-03-01T12:00:02.000000Z') // a day asked, the schedule's longest given
    await sb.admin('POST', '/clock/advance', { seconds: 2 })
    expect(rx.received).toHaveLength(2)
    const [second] = await deliveries()
    expect(second.next_attempt_at).toBe('2026-03-01T12:00:03.000000Z') // 0 asked, the schedule's shortest given
    await sb.admin('POST', '/clock/advance', { seconds: 1 })
    await sb.admin('POST', '/clock/advance', { seconds: 5 })
    expect(rx.received).toHaveLength(3)
    expect((await deliveries())[0]).toMatchObject({ status: 'failed', next_attempt_at: null })
  })

  it('410 Gone disables the subscription', async () => {
    rx.script.push({ status: 410 })
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await pay((await charge()).transaction_id)
    await recorded(sb, 1)
    expect((await sb.admin('GET', `/webhooks/${sub.id}`)).body).toMatchObject({
      disabled_reason: 'the receiver answered 410 Gone',
    })
    await pay((await charge()).transaction_id)
    await sb.admin('POST', '/clock/advance', { seconds: 700 })
    expect(rx.received).toHaveLength(1)
  })

  it('a slow receiver never slows the contract', async () => {
    rx.fallback = { status: 200, delayMs: 3000 }
    await sb.admin('POST', '/webhooks', { url: rx.url })
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const c = await charge()
      const started = performance.now()
      await sb.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 100, pix_key: 'a@b.co', pix_type: 'EMAIL' },
      })
      await pay(c.transaction_id)
      times.push(performance.now() - started)
    }
    // Held, each pair would take the receiver's 3 s; the margin below that is for a loaded machine.
    expect(Math.max(...times)).toBeLessThan(2500)
    expect(rx.received.length).toBeGreaterThan(0)
  })
})

describe('bcb format', () => {
  it('posts {"pix":[...]} to <url>/pix as the BCB API Pix does, for charges paid only', async () => {
    await sb.admin('POST', '/webhooks', { url: `${rx.url}/webhook/`, format: 'bcb' })
    const c = await charge(2550)
    const paid = (await pay(c.transaction_id)).body
    await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 666, pix_key: 'a@b.co', pix_type: 'EMAIL' },
    })
    // Deliveries are queued in the transaction of their event: one, for the paid charge only.
    expect(await deliveries()).toHaveLength(1)
    const [msg] = await rx.waitFor(1)
    await recorded(sb, 1)
    expect(rx.received).toHaveLength(1)
    expect(msg!.path).toBe('/webhook/pix')
    expect(msg!.headers['webhook-signature']).toBeUndefined()
    expect(msg!.json).toEqual({
      pix: [
        {
          endToEndId: paid.end_to_end_id,
          txid: c.transaction_id,
          valor: '25.50',
          chave: expect.any(String),
          horario: '2026-03-01T12:00:00.000Z',
          pagador: { nome: 'Maria Souza', cpf: '52998224725' },
        },
      ],
    })
  })
})
