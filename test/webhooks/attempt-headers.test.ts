// Each attempt records the request headers it sent, and the control plane returns them: the same
// values a real receiver on loopback got, never the subscription's secret, bounded in the store,
// and null (not an error) for attempts recorded before migration 6.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'
import { migrations } from '../../src/store/migrations/index.js'
import { headersText, MAX_HEADERS_TEXT } from '../../src/store/attempt-headers.js'
import { eventually } from '../hang.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import { setBySandbox, startReceiver, type Received } from './receiver.js'

const set = (m: Received) => setBySandbox(m.headers)

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})
async function setup(overrides = {}) {
  const sb = await startTestSandbox(overrides)
  const rx = await startReceiver()
  cleanup.push(
    () => sb.close(),
    () => rx.close(),
  )
  return { sb, rx }
}
const payNew = async (sb: TestSandbox) => {
  const c = (
    await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 1234 },
    })
  ).body
  await sb.admin('POST', `/charges/${c.transaction_id}/pay`)
}
/** The only delivery, once its first attempt is recorded (the receiver holding it comes first). */
const firstAttempt = (sb: TestSandbox): Promise<any> =>
  eventually(
    async () => {
      const [d] = (await sb.admin('GET', '/webhooks/deliveries')).body.data
      return d?.attempts.length > 0 && d
    },
    'no attempt recorded',
    10,
  )

describe('headers of each attempt', () => {
  it('are the headers the receiver got (standard format), signature included and secret left out', async () => {
    const { sb, rx } = await setup()
    const sub = (await sb.admin('POST', '/webhooks', { url: `${rx.url}/hooks` })).body
    await payNew(sb)
    const [msg] = await rx.waitFor(1)
    const d = await firstAttempt(sb)
    const { headers } = d.attempts[0]
    expect(headers).toEqual(set(msg!))
    expect(Object.keys(headers).sort()).toEqual([
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ])
    expect(headers['webhook-id']).toBe(d.event_id)
    // The recorded signature verifies the body sent: what an integrator compares with their own.
    expect(() => new Webhook(sub.secret).verify(JSON.stringify(d.body), headers)).not.toThrow()
    const key = sub.secret.slice('whsec_'.length)
    expect(JSON.stringify(d)).not.toContain(key)
    expect(
      JSON.stringify(
        sb.sandbox.store.db.prepare('SELECT headers FROM delivery_attempts').pluck().all(),
      ),
    ).not.toContain(key)
  })

  it('are content-type and user-agent alone in the BCB format, as the receiver got them', async () => {
    const { sb, rx } = await setup()
    await sb.admin('POST', '/webhooks', { url: rx.url, format: 'bcb' })
    await payNew(sb)
    const [msg] = await rx.waitFor(1)
    expect(msg!.path).toBe('/pix')
    const { headers } = (await firstAttempt(sb)).attempts[0]
    expect(headers).toEqual(set(msg!))
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^pix-sandbox\//),
    })
  })

  it('record the wrong signature that bad_signature chaos sent, and none for an attempt chaos dropped', async () => {
    const { sb, rx } = await setup({ seed: 'headers' })
    const sub = (await sb.admin('POST', '/webhooks', { url: rx.url })).body
    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { bad_signature: 1 })
    const bad = (await sb.admin('POST', `/webhooks/${sub.id}/test`)).body
    const [msg] = await rx.waitFor(1)
    expect(bad.attempts[0]).toMatchObject({ chaos: 'bad_signature', headers: set(msg!) })
    expect(() => new Webhook(sub.secret).verify(msg!.body, bad.attempts[0].headers)).toThrow()

    await sb.admin('PUT', `/webhooks/${sub.id}/chaos`, { drop: 1 })
    const dropped = (await sb.admin('POST', `/webhooks/${sub.id}/test`)).body
    expect(dropped.attempts[0]).toMatchObject({ chaos: 'drop', headers: null })
    expect(rx.received).toHaveLength(1)
  })

  it('are stored as at most MAX_HEADERS_TEXT characters of JSON, a long value cut', () => {
    const huge = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`x-header-${i}`, 'v'.repeat(2000)]),
    )
    const text = headersText({ 'content-type': 'application/json', ...huge })
    expect(text.length).toBeLessThanOrEqual(MAX_HEADERS_TEXT)
    const kept = JSON.parse(text)
    expect(kept['content-type']).toBe('application/json')
    expect(kept['x-header-0']).toBe('v'.repeat(1024) + '…')
    expect(Object.keys(kept).length).toBeLessThan(41)
  })
})

describe('attempts recorded before migration 6', () => {
  it('show no headers, in the control plane and on the dashboard, without failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const database = join(dir, 'old.db')
    const old = openDb(
      database,
      migrations.filter((m) => m.version <= 5),
    )
    old.exec(`INSERT INTO webhooks (id, company_id, url, events, format, secret, created_at) VALUES ('wh_old', NULL, 'http://127.0.0.1:9/', '["charge.paid"]', 'standard', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 0);
      INSERT INTO deliveries (id, webhook_id, event_id, event_type, body, status, attempts, created_at) VALUES ('msg_old', 'wh_old', 'evt_old', 'charge.paid', '{}', 'failed', 1, 0);
      INSERT INTO delivery_attempts (delivery_id, at, status_code, latency_ms, error, chaos) VALUES ('msg_old', 0, 500, 2.5, 'the receiver answered 500', NULL);`)
    old.close()

    const sb = await startTestSandbox({ database })
    cleanup.push(() => sb.close())
    const r = await sb.admin('GET', '/webhooks/deliveries')
    expect(r.status).toBe(200)
    expect(r.body.data[0].attempts).toEqual([
      {
        at: '1970-01-01T00:00:00.000000Z',
        status_code: 500,
        latency_ms: 2.5,
        error: 'the receiver answered 500',
        chaos: null,
        headers: null,
      },
    ])

    const signIn = await fetch(`${sb.url}/_sandbox/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: sb.adminToken }),
      redirect: 'manual',
      headers: { origin: sb.url },
    })
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!
    const page = await fetch(`${sb.url}/_sandbox/ui/webhooks`, { headers: { cookie } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('msg_old')
    expect(html).toContain('No headers recorded')
  })
})
