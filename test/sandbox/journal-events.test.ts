// The request journal (secrets never kept) and the event log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const CHARGE = '/api/v1/hub/transactions/in'

describe('GET /_sandbox/requests', () => {
  it('records every call newest first, with bodies, status and the company', async () => {
    await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      json: { amount: 100, description: 'first' },
    })
    await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount: 'x' } })
    await sb.request('GET', '/api/v1/user/company', { auth: AUTH.inactive })
    const res = await sb.admin('GET', '/requests')
    expect(
      res.body.data.map(
        (e: { method: string; path: string; status: number }) =>
          `${e.method} ${e.path} ${e.status}`,
      ),
    ).toEqual(['GET /api/v1/user/company 200', `POST ${CHARGE} 422`, `POST ${CHARGE} 200`])
    const ok = res.body.data[2]
    expect(ok.request.body).toEqual({ amount: 100, description: 'first' })
    expect(ok.response.body).toMatchObject({ status: 'pending' })
    expect(ok.company_id).toBe('loja-exemplo')
    expect(res.body.data[0].company_id).toBe('loja-inativa')
  })

  it("records the refusals at the contract's edge too: a 404 and a 405 under /api/v1, a HEAD, a 413", async () => {
    await sb.request('GET', '/api/v1/nothing', { auth: AUTH.main })
    await sb.request('GET', CHARGE, { auth: AUTH.main })
    await sb.request('HEAD', '/api/v1/user/company', { auth: AUTH.main })
    await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      body: JSON.stringify({ amount: 1, description: 'x'.repeat(2 * 1024 * 1024) }),
    })
    const res = await sb.admin('GET', '/requests')
    expect(
      res.body.data.map(
        (e: { method: string; path: string; status: number }) =>
          `${e.method} ${e.path} ${e.status}`,
      ),
    ).toEqual([
      `POST ${CHARGE} 413`,
      'HEAD /api/v1/user/company 405',
      `GET ${CHARGE} 405`,
      'GET /api/v1/nothing 404',
    ])
    expect(res.body.data[0].request.body).toBeNull()
  })

  it('answers "was this called N times?" with filters', async () => {
    for (let i = 0; i < 3; i++)
      await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount: 100 } })
    await sb.request('POST', CHARGE, { json: { amount: 100 } })
    expect((await sb.admin('GET', `/requests/count?path=${CHARGE}`)).body).toEqual({ count: 4 })
    expect(
      (await sb.admin('GET', `/requests/count?path=${CHARGE}&status=200&method=post`)).body,
    ).toEqual({ count: 3 })
    expect((await sb.admin('GET', '/requests/count?status=401')).body).toEqual({ count: 1 })
    expect((await sb.admin('GET', '/requests?limit=1')).body.data).toHaveLength(1)
  })

  it('never keeps a secret, a token or a whsec_ value', async () => {
    const tenant = (await sb.admin('POST', '/companies', { name: 'Segredo' })).body
    await sb.request('GET', '/api/v1/user/company', { auth: `Basic ${tenant.token}` })
    await sb.admin('POST', '/scenarios', {
      document: {
        companies: [
          {
            id: 'doc-co',
            name: 'Doc',
            users: [
              {
                id: 'doc-u',
                credentials: [{ client_id: 'doc', client_secret: 'doc-secret-value' }],
              },
            ],
          },
        ],
      },
    })
    await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      json: { amount: 100, description: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5' },
    })
    await sb.request('GET', '/_sandbox/charges', {
      headers: { authorization: `Bearer ${sb.adminToken}` },
    })
    const everything = JSON.stringify((await sb.admin('GET', '/requests?limit=500')).body)
    for (const secret of [
      tenant.client_secret,
      tenant.token,
      sb.adminToken,
      'doc-secret-value',
      'sandbox-secret',
      AUTH.main.slice(6),
      'whsec_c2Vj',
    ]) {
      expect(everything).not.toContain(secret)
    }
    expect(everything).toContain('[redacted]')
  })

  it('redacts secrets in query strings, form bodies, tab-separated Authorization and deep nesting', async () => {
    const token = AUTH.main.slice(6)
    await sb.request(
      'GET',
      '/api/v1/user/company?access_token=q-token-1&client_secret=q-secret-2&limit=5',
      { auth: AUTH.main },
    )
    await sb.request('GET', '/api/v1/user/company', { auth: `Basic\t${token}` })
    await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      body: 'client_id=abc&client_secret=form-secret-3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      json: {
        amount: 1,
        meta: JSON.parse(`${'{"a":'.repeat(70)}{"client_secret":"deep-secret-4"}${'}'.repeat(70)}`),
      },
    })
    const res = await sb.admin('GET', '/requests')
    expect(res.status).toBe(200)
    const everything = JSON.stringify(res.body)
    for (const secret of ['q-token-1', 'q-secret-2', token, 'form-secret-3', 'deep-secret-4'])
      expect(everything).not.toContain(secret)
    const [deep, form, tab, query] = res.body.data
    expect(query.query).toBe('?access_token=[redacted]&client_secret=[redacted]&limit=5')
    expect(tab.request.headers.authorization).toBe('Basic [redacted]')
    expect(form.request.body).toBe('client_id=abc&client_secret=[redacted]')
    expect(deep.request.body).toMatch(/\.\.\.$/)
  })

  it('survives any body: 5,000 nested arrays sent without credentials are kept cut, and the journal still reads', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    // Deeper than CPython's recursion limit: a 400 before authentication, as FastAPI answers it.
    expect(
      (
        await sb.request('POST', CHARGE, {
          body: deep,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400)
    await sb.request('POST', CHARGE, {
      auth: AUTH.main,
      body: `{"amount":1,"description":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
      headers: { 'content-type': 'application/json' },
    })
    const res = await sb.admin('GET', '/requests')
    expect(res.status).toBe(200)
    const [nested, arrays] = res.body.data
    expect(arrays.request.body).toBe(`${'['.repeat(64)}...`)
    expect(nested.request.body).toBe(`{"amount":1,"description":${'{"a":'.repeat(63)}...`)
    expect((await sb.admin('GET', '/requests/count')).body.count).toBe(2)
  })

  it("company credentials see their own company's requests only; DELETE clears", async () => {
    await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount: 100 } })
    await sb.request('GET', '/api/v1/user/company', { auth: AUTH.inactive })
    const own = await sb.request('GET', '/_sandbox/requests', { auth: AUTH.inactive })
    expect(own.body.data.map((e: { company_id: string }) => e.company_id)).toEqual(['loja-inativa'])
    expect((await sb.admin('DELETE', '/requests')).status).toBe(204)
    expect((await sb.admin('GET', '/requests/count')).body.count).toBe(0)
  })
})

describe('GET /_sandbox/events', () => {
  it('is the append-only log of state changes, oldest first, with cursors and a type filter', async () => {
    const c = (await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount: 100 } })).body
    await sb.admin('POST', `/charges/${c.transaction_id}/pay`)
    const paid = await sb.admin('GET', '/events?type=charge.paid')
    expect(paid.body.data).toEqual([
      expect.objectContaining({
        type: 'charge.paid',
        company_id: 'loja-exemplo',
        at: '2026-03-01T12:00:00.000000Z',
        data: expect.objectContaining({ transaction_id: c.transaction_id, amount: 100 }),
      }),
    ])
    const first = await sb.admin('GET', '/events?limit=2')
    const second = await sb.admin('GET', `/events?limit=2&cursor=${first.body.next_cursor}`)
    expect(first.body.data[0].type).toBe('balance.changed')
    expect(second.body.data[0].id).not.toBe(first.body.data[1].id)
    const types = (await sb.admin('GET', '/events?limit=500')).body.data.map(
      (e: { type: string }) => e.type,
    )
    expect(types.slice(-3)).toEqual(['charge.created', 'balance.changed', 'charge.paid'])
  })
})

describe('GET /_sandbox/events, newest first and about one record', () => {
  it("reads from the log's end with order=newest, its cursor going on to older events", async () => {
    for (const amount of [101, 102, 103])
      await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount } })
    const all = (await sb.admin('GET', '/events?limit=500')).body.data.map(
      (e: { id: string }) => e.id,
    )
    const first = await sb.admin('GET', '/events?order=newest&limit=2')
    const second = await sb.admin(
      'GET',
      `/events?order=newest&limit=2&cursor=${first.body.next_cursor}`,
    )
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual(
      all.slice(-4).reverse(),
    )
  })

  it("with transaction_id, the events of one charge or transfer only, its company found for the admin; others' records show nothing to a company", async () => {
    const c = (await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount: 100 } })).body
    await sb.request('POST', CHARGE, { auth: AUTH.main, json: { amount: 200 } })
    await sb.admin('POST', `/charges/${c.transaction_id}/pay`)
    const about = await sb.admin('GET', `/events?transaction_id=${c.transaction_id}`)
    expect(about.body.data.map((e: { type: string }) => e.type)).toEqual([
      'charge.created',
      'balance.changed',
      'charge.paid',
    ])
    expect(
      about.body.data.every(
        (e: { data: { transaction_id?: string; reference?: string } }) =>
          (e.data.transaction_id ?? e.data.reference) === c.transaction_id,
      ),
    ).toBe(true)
    const ledger = await sb.admin(
      'GET',
      `/events?transaction_id=${c.transaction_id}&type=balance.changed`,
    )
    expect(ledger.body.data).toHaveLength(1)
    expect(
      (
        await sb.request('GET', `/_sandbox/events?transaction_id=${c.transaction_id}`, {
          auth: AUTH.main,
        })
      ).body.data,
    ).toHaveLength(3)
    expect(
      (
        await sb.request('GET', `/_sandbox/events?transaction_id=${c.transaction_id}`, {
          auth: AUTH.inactive,
        })
      ).body.data,
    ).toEqual([])
    expect((await sb.admin('GET', '/events?transaction_id=nope')).body).toEqual({
      data: [],
      next_cursor: null,
    })
  })
})
