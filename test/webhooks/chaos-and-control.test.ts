// Webhook chaos, the subscription API, manual retries and test messages, restarts, the allow-list.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'
import { startReceiver, type Received } from './receiver.js'
import { recorded, settled } from './settle.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})
async function setup(overrides = {}) {
  const sb = await startTestSandbox({ seed: 'chaos-seed', ...overrides })
  const rx = await startReceiver()
  cleanup.push(
    () => sb.close(),
    () => rx.close(),
  )
  return { sb, rx }
}
const payNew = async (sb: TestSandbox, amount = 1000) => {
  const c = (
    await sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json: { amount } })
  ).body
  return (await sb.admin('POST', `/charges/${c.transaction_id}/pay`)).body
}
const verifies = (secret: string, m: Received) => {
  try {
    new Webhook(secret).verify(m.body, {
      'webhook-id': m.headers['webhook-id'] as string,
      'webhook-timestamp': m.headers['webhook-timestamp'] as string,
      'webhook-signature': m.headers['webhook-signature'] as string,
    })
    return true
  } catch {
    return false
  }
}

describe('chaos', () => {
  it('drop: the attempt is not sent, and the retry delivers it', async () => {
    const { sb, rx } = await setup()
    sb.apply({ settings: { webhook_retry_seconds: [1, 1, 1, 1, 1, 1, 1, 1] } })
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { drop: 1 })
    await payNew(sb)
    await sb.admin('POST', '/clock/advance', { seconds: 2 })
    expect(rx.received).toHaveLength(0)
    const [d] = (await sb.admin('GET', '/webhooks/deliveries')).body.data
    expect(d.attempts.map((a: { chaos: string }) => a.chaos)).toEqual(['drop', 'drop'])
    await sb.admin('DELETE', `/webhooks/${sub.id}/chaos`)
    await sb.admin('POST', '/clock/advance', { seconds: 2 })
    expect(rx.received).toHaveLength(1)
  })

  it('duplicate: the same message (same webhook-id) arrives twice', async () => {
    const { sb, rx } = await setup()
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { duplicate: 1 })
    await payNew(sb)
    const msgs = await rx.waitFor(2)
    expect(msgs[0]!.headers['webhook-id']).toBe(msgs[1]!.headers['webhook-id'])
    expect(msgs[0]!.body).toBe(msgs[1]!.body)
  })

  it('bad_signature: the signature does not verify (and a receiver that refuses it gets a retry)', async () => {
    const { sb, rx } = await setup()
    sb.apply({ settings: { webhook_retry_seconds: [1] } })
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { bad_signature: 1 })
    rx.script.push({ status: 401 })
    await payNew(sb)
    const [first] = await rx.waitFor(1)
    expect(verifies(sub.secret, first!)).toBe(false)
    await recorded(sb, 1) // the refusal is recorded, so the retry is scheduled before the clock moves
    await sb.admin('DELETE', `/webhooks/${sub.id}/chaos`)
    await sb.admin('POST', '/clock/advance', { seconds: 2 })
    expect(verifies(sub.secret, rx.received[1]!)).toBe(true)
  })

  it('delay_ms: the message leaves late', async () => {
    const { sb, rx } = await setup()
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { delay_ms: 400 })
    const started = Date.now()
    await payNew(sb)
    const [m] = await rx.waitFor(1)
    expect(m!.at - started).toBeGreaterThanOrEqual(380)
  })

  it('reorder: messages are held back and sent newest first', async () => {
    const { sb, rx } = await setup()
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { reorder: true })
    const paid = [await payNew(sb, 101), await payNew(sb, 102), await payNew(sb, 103)]
    // An advance sends everything due and waits for the sends: a second in, nothing is due yet.
    await sb.admin('POST', '/clock/advance', { seconds: 1 })
    expect(rx.received).toHaveLength(0)
    await sb.admin('POST', '/clock/advance', { seconds: 1 })
    // A send still under way after the advance's 2 s goes on after its answer (CONTROL-PLANE.md):
    // on a loaded machine, 2 of 3 had arrived by then.
    const got = await rx.waitFor(3)
    expect(got.map((m) => m.json.data.amount)).toEqual([103, 102, 101])
    expect(paid).toHaveLength(3)
  })

  it('probabilities are deterministic under SEED', async () => {
    const run = async () => {
      const { sb, rx } = await setup()
      const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
      await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { drop: 0.5, duplicate: 0.5 })
      for (let i = 0; i < 8; i++) await payNew(sb, 100 + i)
      await sb.admin('POST', '/clock/advance', { seconds: 1 })
      // The sends to the receiver are real: the newest may still be under way when advance answers.
      return (await settled(sb)).map((d) => d.attempts.map((a) => a.chaos ?? 'sent').join('+'))
    }
    const a = await run()
    const b = await run()
    expect(a).toEqual(b)
    expect(new Set(a.flatMap((x: string) => x.split('+'))).size).toBeGreaterThan(1)
  })

  it('refuses probabilities outside 0..1', async () => {
    const { sb, rx } = await setup()
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    expect((await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { drop: 2 })).status).toBe(422)
    expect((await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { shuffle: true })).status).toBe(422)
    expect((await sb.admin('GET', `/webhooks/${sub.id}`)).body.chaos).toBeNull()
  })
})

describe('subscriptions', () => {
  it('validate their body and keep companies apart', async () => {
    const { sb, rx } = await setup()
    sb.apply({ companies: [tenantDoc('other')] })
    for (const body of [
      {},
      { url: 'ftp://x' },
      { url: rx.url, events: ['charge.created'] },
      { url: rx.url, format: 'xml' },
      { url: rx.url, secret: 'plain' },
    ]) {
      expect((await sb.admin('POST', '/webhooks', body)).status).toBe(422)
    }
    const mine = (
      await sb.request('POST', '/_sandbox/webhooks', { auth: AUTH.main, json: { url: rx.url } })
    ).body
    expect(mine.company_id).toBe('loja-exemplo')
    const other = basic('other', 'other-secret')
    expect((await sb.request('GET', `/_sandbox/webhooks/${mine.id}`, { auth: other })).status).toBe(
      404,
    )
    expect((await sb.request('GET', '/_sandbox/webhooks', { auth: other })).body.data).toEqual([])
    expect(
      (await sb.request('DELETE', `/_sandbox/webhooks/${mine.id}`, { auth: other })).status,
    ).toBe(404)
    expect(
      (await sb.request('DELETE', `/_sandbox/webhooks/${mine.id}`, { auth: AUTH.main })).status,
    ).toBe(204)
  })

  it('accept a given whsec_ secret', async () => {
    const { sb, rx } = await setup()
    const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url, secret })).body
    expect(sub.secret).toBe(secret)
    await payNew(sb)
    expect(verifies(secret, (await rx.waitFor(1))[0]!)).toBe(true)
  })

  it('test sends a webhook.test message at once; retry sends a delivery again', async () => {
    const { sb, rx } = await setup()
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    const test = await sb.admin('POST', `/webhooks/${sub.id}/test`)
    expect(test.body).toMatchObject({ event_type: 'webhook.test', status: 'delivered' })
    expect(rx.received[0]!.json.type).toBe('webhook.test')
    const again = await sb.admin('POST', `/webhooks/deliveries/${test.body.id}/retry`)
    expect(again.body.attempts).toHaveLength(2)
    expect(rx.received).toHaveLength(2)
    expect((await sb.admin('POST', '/webhooks/deliveries/nope/retry')).status).toBe(404)
  })

  it('with WEBHOOK_ALLOWED_HOSTS, only listed hosts can be subscribed', async () => {
    const { sb, rx } = await setup({ webhookAllowedHosts: ['hooks.internal'] })
    expect(await sb.admin('POST', '/webhooks', { url: rx.url })).toMatchObject({
      status: 422,
      body: { detail: `url: host 127.0.0.1:${rx.port} is not in WEBHOOK_ALLOWED_HOSTS` },
    })
    expect(
      (await sb.admin('POST', '/webhooks', { url: 'http://hooks.internal:9000/x' })).status,
    ).toBe(201)
  })

  it('WEBHOOK_ALLOWED_HOSTS is checked at every send: a subscription made before it was set is refused, at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const database = join(dir, 'store.db')
    const rx = await startReceiver()
    cleanup.push(() => rx.close())
    const first = await startTestSandbox({ database })
    const sub = (await first.admin('POST', '/webhooks', { url: `${rx.url}/hooks` })).body
    await first.close()
    const second = await startTestSandbox({ database, webhookAllowedHosts: ['hooks.internal'] })
    cleanup.push(() => second.close())
    const test = (await second.admin('POST', `/webhooks/${sub.id}/test`)).body
    const refused = `not sent: host 127.0.0.1:${rx.port} is not in WEBHOOK_ALLOWED_HOSTS`
    expect(test).toMatchObject({ status: 'failed', next_attempt_at: null, last_error: refused })
    expect(test.attempts).toMatchObject([{ status_code: null, error: refused }])
    await payNew(second)
    await second.admin('POST', '/clock/advance', { seconds: 700 })
    const paid = (await second.admin('GET', '/webhooks/deliveries?status=failed')).body.data
    expect(
      paid.map((d: { event_type: string; attempts: unknown[] }) => [
        d.event_type,
        d.attempts.length,
      ]),
    ).toEqual([
      ['charge.paid', 1],
      ['webhook.test', 1],
    ])
    expect(rx.received).toHaveLength(0)
  })

  it('reset removes subscriptions and deliveries', async () => {
    const { sb, rx } = await setup()
    await sb.admin('POST', '/webhooks', { url: rx.url })
    await payNew(sb)
    await sb.admin('POST', '/reset')
    expect((await sb.admin('GET', '/webhooks')).body.data).toEqual([])
    expect((await sb.admin('GET', '/webhooks/deliveries')).body.data).toEqual([])
  })
})

describe('persistence', () => {
  it('messages queued while the server was stopped are delivered after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const database = join(dir, 'store.db')
    let rx = await startReceiver()
    const port = rx.port
    await rx.close()
    const first = await startTestSandbox({ database })
    const sub = (await first.admin('POST', '/webhooks', { url: `http://127.0.0.1:${port}` })).body
    await payNew(first)
    await first.admin('POST', '/clock/advance', { seconds: 0.001 })
    await recorded(first, 1) // the attempt the payment started may still be under way
    const [d] = (await first.admin('GET', '/webhooks/deliveries')).body.data
    expect(d).toMatchObject({ status: 'pending' })
    expect(d.attempts[0].error).toMatch(/could not connect/)
    await first.close()

    rx = await startReceiver(port)
    cleanup.push(() => rx.close())
    const second = await startTestSandbox({ database })
    cleanup.push(() => second.close())
    await second.admin('POST', '/clock/advance', { seconds: 2 })
    const [m] = await rx.waitFor(1)
    expect(m!.json.type).toBe('charge.paid')
    expect(verifies(sub.secret, m!)).toBe(true)
  })
})
