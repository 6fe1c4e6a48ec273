// Readiness is scoped like every control route: a company sees its own report only, the admin
// every company's together or one by `company_id`; a 401 belongs to the company its client id
// names, one naming nobody to the admin's report only, and a call that did not authenticate
// raises findings in the admin's report only; a company's own hows name its own credentials;
// reset and deleting a company clear it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eventually } from '../hang.js'
import { AUTH, basic, request, startTestSandbox, T0, type TestSandbox } from '../harness.js'
import { startHookReceiver } from './receivers.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())
beforeEach(async () => expect((await sb.admin('POST', '/reset', {})).status).toBe(200))

interface Tenant {
  company_id: string
  user_id: string
  client_id: string
  client_secret: string
  token: string
}
const tenant = async (): Promise<Tenant> =>
  (await sb.admin('POST', '/companies', { name: 'Tenant', balance: 100_000 })).body
const auth = (t: Tenant) => `Basic ${t.token}`
const charge = (
  authorization: string,
  headers: Record<string, string> = { accept: 'application/json' },
) =>
  request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
    auth: authorization,
    json: { amount: 1000 },
    headers,
  })
const own = async (authorization: string, query = '') =>
  request(sb.url, 'GET', `/_sandbox/readiness${query}`, { auth: authorization })
const met = (report: any) =>
  report.behaviours
    .filter((b: { met: boolean }) => b.met)
    .map((b: { id: string; count: number }) => `${b.id}:${b.count}`)
const findings = (report: any) =>
  report.findings.map((f: { id: string; count: number }) => `${f.id}:${f.count}`)

describe('readiness scope', () => {
  it('a company sees its own calls only; the admin sees all, or one company', async () => {
    const [a, b] = [await tenant(), await tenant()]
    await charge(auth(a))
    await charge(auth(a), { accept: 'text/html' })
    const ofA = (await own(auth(a))).body
    expect(met(ofA)).toEqual(['charge.created:2'])
    expect(findings(ofA)).toEqual(['missing_accept:1'])
    const ofB = (await own(auth(b))).body
    expect([met(ofB), findings(ofB), ofB.coverage]).toEqual([
      [],
      [],
      { met: 0, total: 32, percent: 0 },
    ])
    expect(met((await sb.admin('GET', `/readiness?company_id=${b.company_id}`)).body)).toEqual([])
    expect(met((await sb.admin('GET', `/readiness?company_id=${a.company_id}`)).body)).toEqual([
      'charge.created:2',
    ])
    const all = (await sb.admin('GET', '/readiness')).body
    expect([met(all), findings(all), all.coverage]).toEqual([
      ['charge.created:2'],
      ['missing_accept:1'],
      { met: 1, total: 32, percent: 3 },
    ])
  })

  it("another company's id is 404, as elsewhere, and so is an unknown one", async () => {
    const [a, b] = [await tenant(), await tenant()]
    const refused = await own(auth(a), `?company_id=${b.company_id}`)
    expect([refused.status, refused.body]).toEqual([404, { detail: 'Company not found' }])
    expect((await own(auth(a), `?company_id=${a.company_id}`)).status).toBe(200)
    const unknown = await sb.admin('GET', '/readiness?company_id=nope')
    expect([unknown.status, unknown.body]).toEqual([404, { detail: 'Company not found' }])
    expect((await request(sb.url, 'GET', '/_sandbox/readiness')).status).toBe(401)
  })

  it('a 401 belongs to the company its client id names; naming nobody, to the admin only', async () => {
    const a = await tenant()
    await charge(basic(a.client_id, 'wrong'))
    await charge(basic('nobody', 'x'))
    await request(sb.url, 'GET', '/api/v1/user/company', {
      headers: { accept: 'application/json' },
    })
    expect(met((await own(auth(a))).body)).toEqual(['charge.unauthenticated:1'])
    expect(met((await own(AUTH.main)).body)).toEqual([])
    expect(met((await sb.admin('GET', '/readiness')).body)).toEqual([
      'charge.unauthenticated:2',
      'company.unauthenticated:1',
    ])
  })

  it('a call that did not authenticate cannot plant a finding in the company its client id names', async () => {
    const a = await tenant()
    await charge(basic(a.client_id, 'guess'), { accept: 'text/html' })
    await charge(basic(a.client_id, 'guess'), {
      accept: 'application/json',
      'content-type': 'text/plain',
    })
    expect(met((await own(auth(a))).body)).toEqual(['charge.unauthenticated:2'])
    expect(findings((await own(auth(a))).body)).toEqual([])
    const all = (await sb.admin('GET', '/readiness')).body
    expect(all.findings.find((f: { id: string }) => f.id === 'missing_accept')).toMatchObject({
      count: 1,
      example: { company_id: null, path: '/api/v1/hub/transactions/in' },
    })
  })

  it("a company's own report names its own credentials in every how; every company's together, the default scenario's", async () => {
    const a = await tenant()
    const hows = (report: any) =>
      Object.fromEntries(report.behaviours.map((b: { id: string; how: string }) => [b.id, b.how]))
    for (const report of [
      (await own(auth(a))).body,
      (await sb.admin('GET', `/readiness?company_id=${a.company_id}`)).body,
    ]) {
      const how = hows(report)
      const text = JSON.stringify(how)
      expect(text).not.toContain('sandbox-client')
      for (const other of ['inactive:', 'no-provider:', 'empty-balance:', 'charges-only:'])
        expect(text).not.toContain(other)
      expect(how['charge.created']).toBe(
        `POST /api/v1/hub/transactions/in {"amount": 1000} as ${a.client_id}:<client_secret>`,
      )
      expect(how['charge.unauthenticated']).toContain(`(${a.client_id}:wrong-secret)`)
      expect(how['charge.forbidden']).toBe(
        `PATCH /_sandbox/companies/${a.company_id} {"api_active": false} (admin token), then POST /api/v1/hub/transactions/in {"amount": 1000} as ${a.client_id}:<client_secret>; PATCH it back to true`,
      )
      expect(how['transfer.no_provider']).toContain(
        `PUT /_sandbox/users/${a.user_id}/providers {"in": null, "out": null} (admin token)`,
      )
      expect(how['transfer.insufficient_balance']).toContain(
        `PUT /_sandbox/users/${a.user_id}/balance {"amount": 0}`,
      )
    }
    expect(hows((await sb.admin('GET', '/readiness')).body)['charge.created']).toBe(
      'POST /api/v1/hub/transactions/in {"amount": 1000} as sandbox-client:sandbox-secret',
    )
  })

  it("a tenant's own hows work as written for that tenant: forbidden, no Provider, insufficient balance", async () => {
    const a = await tenant()
    await sb.admin('PATCH', `/companies/${a.company_id}`, { api_active: false })
    expect((await charge(auth(a))).status).toBe(403)
    await sb.admin('PATCH', `/companies/${a.company_id}`, { api_active: true })
    await sb.admin('PUT', `/users/${a.user_id}/providers`, { in: null, out: null })
    expect((await charge(auth(a))).status).toBe(422)
    await request(sb.url, 'PUT', `/_sandbox/users/${a.user_id}/balance`, {
      auth: auth(a),
      json: { amount: 0 },
    })
    const transfer = { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL' }
    await sb.admin('PUT', `/users/${a.user_id}/providers`, {
      in: { name: 'B', operations: ['charge'] },
      out: { name: 'B', operations: ['transfer'] },
    })
    expect(
      (
        await request(sb.url, 'POST', '/api/v1/hub/transactions/out', {
          auth: auth(a),
          json: transfer,
        })
      ).status,
    ).toBe(422)
    expect(met((await own(auth(a))).body)).toEqual([
      'charge.forbidden:1',
      'charge.no_provider:1',
      'transfer.insufficient_balance:1',
    ])
  })

  it("a company's webhooks count for it, not for another", async () => {
    const [a, b] = [await tenant(), await tenant()]
    const rx = await startHookReceiver('correct')
    try {
      const hook = (
        await request(sb.url, 'POST', '/_sandbox/webhooks', {
          auth: auth(a),
          json: { url: rx.url },
        })
      ).body
      rx.secret = hook.secret
      const tx = (await charge(auth(a))).body.transaction_id
      await sb.admin('POST', `/charges/${tx}/pay`)
      await eventually(
        async () => met((await own(auth(a))).body).includes('webhook.charge.paid:1'),
        'no delivery recorded',
      )
      expect(met((await own(auth(b))).body)).toEqual([])
    } finally {
      await rx.close()
    }
  })

  it("since: the company's creation, or the last reset", async () => {
    sb.clock.set(T0 + 60_000_000)
    const a = await tenant()
    expect((await own(auth(a))).body.since).toBe('2026-03-01T12:01:00.000000Z')
    sb.clock.set(T0 + 120_000_000)
    await sb.admin('POST', '/reset', {})
    expect((await sb.admin('GET', '/readiness')).body.since).toBe('2026-03-01T12:02:00.000000Z')
    sb.clock.set(T0)
  })

  it.each([
    ['a tenant', false],
    ["a company deleted since (a deleted company's included)", true],
  ])(
    "a receiver URL that took the deliveries of %s refuses another tenant's (a secret it does not hold): no finding, for any company",
    async (_, deleted) => {
      const [a, b] = [await tenant(), await tenant()]
      const rx = await startHookReceiver('correct')
      /** Subscribes `rx` as `t`; answers the subscription's id and secret. */
      const subscribe = async (t: Tenant) =>
        (
          await request(sb.url, 'POST', '/_sandbox/webhooks', {
            auth: auth(t),
            json: { url: rx.url },
          })
        ).body as { id: string; secret: string }
      /** A charge of `t`'s paid, and its delivery answered `status` and recorded. */
      const paid = async (t: Tenant, hookId: string, status: number) => {
        const tx = (await charge(auth(t))).body.transaction_id
        await sb.admin('POST', `/charges/${tx}/pay`)
        let codes: unknown[] = []
        await eventually(
          async () => {
            const page = (await sb.admin('GET', `/webhooks/deliveries?webhook_id=${hookId}`)).body
            codes = page.data.flatMap((d: any) => d.attempts.map((x: any) => x.status_code))
            return codes.includes(status)
          },
          () => `no ${status} recorded: ${JSON.stringify(codes)}`,
        )
      }
      try {
        const hookA = await subscribe(a)
        rx.secret = hookA.secret
        await paid(a, hookA.id, 204)
        if (deleted)
          expect((await sb.admin('DELETE', `/companies/${a.company_id}`)).status).toBe(204)
        // b subscribes the same URL; the receiver still holds a's secret, and refuses b's deliveries.
        const hookB = await subscribe(b)
        await paid(b, hookB.id, 400)
        expect(findings((await own(auth(b))).body)).toEqual([])
        expect(findings((await sb.admin('GET', '/readiness')).body)).toEqual([])
      } finally {
        await rx.close()
      }
    },
  )

  it("a deleted company's part stays in the admin's report (the run's); reset clears every report", async () => {
    const [a, b] = [await tenant(), await tenant()]
    await charge(auth(a), { accept: 'text/html' })
    await charge(auth(b))
    await sb.admin('DELETE', `/companies/${a.company_id}`)
    const all = (await sb.admin('GET', '/readiness')).body
    expect([met(all), findings(all)]).toEqual([['charge.created:2'], ['missing_accept:1']])
    expect(all.findings[0].example.company_id).toBe(a.company_id)
    expect((await sb.admin('GET', `/readiness?company_id=${a.company_id}`)).status).toBe(404)
    await sb.admin('POST', '/reset', {})
    const after = (await sb.admin('GET', '/readiness')).body
    expect([met(after), findings(after)]).toEqual([[], []])
  })
})
