// The control client's balance() and webhooks.subscribe(): what a test suite reached for first and
// had to dig out of the .d.ts (`api.GET('/users/{user_id}/balance')`, `api.POST('/webhooks')`).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createControl } from '../../src/client/control.js'
import { SandboxRequestError, startSandbox, type Sandbox } from '../../src/index.js'

let sb: Sandbox
let receiver: Server
let hookUrl: string
const received: { path: string; body: any }[] = []

beforeAll(async () => {
  sb = await startSandbox()
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(body) })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})
afterAll(async () => {
  receiver?.close()
  await sb?.close()
})

const charge = async (baseUrl: string, authorization: string, amount: number): Promise<string> => {
  const res = await fetch(`${baseUrl}/hub/transactions/in`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ amount }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { transaction_id: string }).transaction_id
}

describe('balance()', () => {
  it("reads a tenant's own balance in cents, as payments and transfers move it", async () => {
    const shop = await sb.tenant({ balance: 0 })
    expect(await shop.control.balance()).toBe(0)
    await shop.control.charges.pay(await charge(shop.baseUrl, shop.authorization, 1000))
    expect(await shop.control.balance()).toBe(1000)
    const out = await fetch(`${shop.baseUrl}/hub/transactions/out`, {
      method: 'POST',
      headers: { authorization: shop.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 400, pix_key: 'maria@example.com', pix_type: 'EMAIL' }),
    })
    expect(out.status).toBe(200)
    expect(await shop.control.balance()).toBe(600)
  })

  it('takes a user id with the admin token, and says so when none is given', async () => {
    expect(await sb.control.balance('loja-exemplo-empty')).toBe(0)
    const shop = await sb.tenant({ balance: 2500 })
    expect(await sb.control.balance(shop.userId)).toBe(2500)
    await expect(sb.control.balance()).rejects.toThrow(
      /admin token is no user's; name one, e\.g\. balance\('loja-exemplo-user'\)/,
    )
  })

  it("finds its own user through /whoami when built from credentials alone, and cannot read another company's", async () => {
    const main = createControl(sb.url, sb.credentials.emptyBalance.authorization)
    expect(await main.balance()).toBe(0)
    const shop = await sb.tenant({ balance: 10 })
    const refused = await main.balance(shop.userId).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(SandboxRequestError)
    expect(refused).toMatchObject({ status: 404 })
  })
})

const transfer = (shop: { baseUrl: string; authorization: string }, json: object) =>
  fetch(`${shop.baseUrl}/hub/transactions/out`, {
    method: 'POST',
    headers: { authorization: shop.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL', ...json }),
  }).then((r) => r.json() as Promise<{ transaction_id: string; status: string; message: string }>)

describe('charges, transfers and outcomes', () => {
  it('cancels a pending charge, reads and settles a transfer, and queues outcomes until cleared', async () => {
    const shop = await sb.tenant({ balance: 10_000 })
    const cancelled = await shop.control.charges.cancel(
      await charge(shop.baseUrl, shop.authorization, 100),
    )
    expect([cancelled.status, cancelled.cancel_reason]).toEqual(['cancelled', 'cancelled'])
    const pending = await transfer(shop, { amount: 3000, pix_key: 'pending@pix.example' })
    expect((await shop.control.transfers.get(pending.transaction_id)).status).toBe('pending')
    const failed = await shop.control.transfers.settle(
      pending.transaction_id,
      'failed',
      'Conta encerrada',
    )
    expect([failed.status, failed.message]).toEqual(['failed', 'Conta encerrada'])
    expect(await shop.control.balance()).toBe(10_000)
    await shop.control.outcomes.next({ status: 'failed', message: 'Fila cheia', times: 2 })
    expect((await transfer(shop, {})).message).toBe('Fila cheia')
    await shop.control.outcomes.clear()
    expect((await transfer(shop, {})).status).toBe('success')
  })
})

describe('webhooks.subscribe()', () => {
  it('subscribes a tenant to the events it names, with the secret, and delivers only its own', async () => {
    const shop = await sb.tenant()
    const sub = await shop.control.webhooks.subscribe(`${hookUrl}/shop`, ['charge.paid'])
    expect(sub).toMatchObject({
      company_id: shop.companyId,
      url: `${hookUrl}/shop`,
      events: ['charge.paid'],
      format: 'standard',
      secret: expect.stringMatching(/^whsec_/),
    })
    const mine = await charge(shop.baseUrl, shop.authorization, 1234)
    await shop.control.charges.pay(mine)
    await shop.control.webhooks.waitForDelivery({ event: 'charge.paid', transaction_id: mine })
    await sb.control.charges.pay(await charge(sb.baseUrl, sb.credentials.main.authorization, 999)) // another company's
    const toShop = received.filter((r) => r.path === '/shop')
    expect(toShop.map((r) => [r.body.type, r.body.data.transaction_id])).toEqual([
      ['charge.paid', mine],
    ])
  })

  it("subscribes the admin to every company's events by default, or one company's", async () => {
    const all = await sb.control.webhooks.subscribe(`${hookUrl}/all`)
    expect(all.company_id).toBeNull()
    expect(all.events.length).toBeGreaterThan(3)
    const shop = await sb.tenant()
    const one = await sb.control.webhooks.subscribe(
      `${hookUrl}/one`,
      ['transfer.failed', 'charge.paid'],
      { company_id: shop.companyId },
    )
    expect(one).toMatchObject({
      company_id: shop.companyId,
      events: ['transfer.failed', 'charge.paid'],
    })
  })

  it("checks a subscription's receiver: this one answers 204 to everything, a bad signature included", async () => {
    const shop = await sb.tenant()
    const sub = await shop.control.webhooks.subscribe(`${hookUrl}/checked`, ['charge.paid'])
    const report = await shop.control.webhooks.check(sub.id)
    expect(report.checks.map((c) => [c.id, c.passed])).toEqual([
      ['valid', true],
      ['duplicate', true],
      ['bad_signature', false],
      ['stale_timestamp', false],
      ['unknown_type', true],
    ])
    expect(report.passed).toBe(false)
    const other = await sb.tenant()
    await expect(other.control.webhooks.check(sub.id)).rejects.toMatchObject({
      status: 404,
      detail: 'Webhook not found',
    })
  })

  it('throws the refusal with its status and detail', async () => {
    const refused = await sb.control.webhooks
      .subscribe('ftp://example.com/hook')
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(SandboxRequestError)
    expect(refused).toMatchObject({
      status: 422,
      detail: expect.stringContaining('url: must be an http(s) URL'),
    })
  })
})

describe('readiness()', () => {
  it("reads a tenant's own report, typed; the sandbox's reads every company's or one", async () => {
    const shop = await sb.tenant()
    await charge(shop.baseUrl, shop.authorization, 1500)
    const own = await shop.control.readiness()
    const created = own.behaviours.find((b) => b.id === 'charge.created')
    expect(created).toMatchObject({ met: true, count: 1 })
    expect(own.coverage).toEqual({
      met: 1,
      total: own.behaviours.length,
      percent: Math.floor(100 / own.behaviours.length),
    })
    const ofShop = await sb.readiness(shop.companyId)
    expect(ofShop.behaviours).toEqual(own.behaviours)
    const all = await sb.readiness()
    expect(all.behaviours.find((b) => b.id === 'charge.created')!.count).toBeGreaterThanOrEqual(1)
    // The report's types are the document's: ids and severities are unions, not strings.
    const severities: ('error' | 'warning' | 'info')[] = all.findings.map((f) => f.severity)
    expect(Array.isArray(severities)).toBe(true)
    await expect(shop.control.readiness('loja-exemplo')).rejects.toMatchObject({
      status: 404,
      detail: 'Company not found',
    })
  })
})
