// Tenants: isolated companies created, changed and removed through the control plane.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, rowCounts, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const contract = (token: string, method: string, path: string, json?: unknown) =>
  sb.request(method, `/api/v1${path}`, { auth: `Basic ${token}`, json })
const transfer = { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' }

describe('POST /_sandbox/companies', () => {
  it('creates an active tenant with both Providers, both permissions and balance 0 by default', async () => {
    const res = await sb.admin('POST', '/companies')
    expect(res.status).toBe(201)
    const t = res.body
    expect(Object.keys(t).sort()).toEqual([
      'client_id',
      'client_secret',
      'company_id',
      'token',
      'user_id',
    ])
    expect(Buffer.from(t.token, 'base64').toString()).toBe(`${t.client_id}:${t.client_secret}`)
    expect((await contract(t.token, 'POST', '/hub/transactions/in', { amount: 100 })).status).toBe(
      200,
    )
    expect(await contract(t.token, 'POST', '/hub/transactions/out', transfer)).toMatchObject({
      status: 422,
      body: { detail: 'Insufficient balance' },
    })
    expect(sb.sandbox.store.identity.company(t.company_id)?.name.length).toBeGreaterThan(2)
  })

  it('takes a name, a balance, Providers and permissions', async () => {
    const t = (
      await sb.admin('POST', '/companies', {
        name: 'Padaria Boa',
        balance: 5000,
        providers: { out: null },
        permissions: ['charge'],
      })
    ).body
    expect(sb.sandbox.store.identity.company(t.company_id)?.name).toBe('Padaria Boa')
    expect((await sb.admin('GET', `/users/${t.user_id}/balance`)).body.balance).toBe(5000)
    expect((await contract(t.token, 'POST', '/hub/transactions/out', transfer)).status).toBe(403)
  })

  it('isolates tenants both ways', async () => {
    const a = (await sb.admin('POST', '/companies', { balance: 1000 })).body
    const b = (await sb.admin('POST', '/companies', { balance: 1000 })).body
    const chargeA = (await contract(a.token, 'POST', '/hub/transactions/in', { amount: 100 })).body
      .transaction_id
    const chargeB = (await contract(b.token, 'POST', '/hub/transactions/in', { amount: 100 })).body
      .transaction_id
    const get = (t: { token: string }, path: string) =>
      sb.request('GET', `/_sandbox${path}`, { auth: `Basic ${t.token}` })
    expect((await get(a, `/charges/${chargeB}`)).status).toBe(404)
    expect((await get(b, `/charges/${chargeA}`)).status).toBe(404)
    expect(
      (await get(a, '/charges')).body.data.map((c: { transaction_id: string }) => c.transaction_id),
    ).toEqual([chargeA])
    expect(
      (await get(b, '/charges')).body.data.map((c: { transaction_id: string }) => c.transaction_id),
    ).toEqual([chargeB])
    expect((await get(a, `/users/${b.user_id}/balance`)).status).toBe(404)
    expect(
      (await get(a, '/events')).body.data.every(
        (e: { company_id: string }) => e.company_id === a.company_id,
      ),
    ).toBe(true)
  })

  it('refuses bad bodies and creates nothing', async () => {
    const before = sb.sandbox.store.db.prepare('SELECT count(*) FROM companies').pluck().get()
    for (const body of [
      { balance: -1 },
      { balance: 1.5 },
      { permissions: ['refund'] },
      { providers: { in: { name: 'X', operations: ['fly'] } } },
      { name: '' },
      { nope: 1 },
    ]) {
      expect((await sb.admin('POST', '/companies', body)).status).toBe(422)
    }
    expect(sb.sandbox.store.db.prepare('SELECT count(*) FROM companies').pluck().get()).toBe(before)
  })
})

describe('GET /_sandbox/companies', () => {
  it('lists companies with their users, balances, Providers and credential ids (no secret), a page at a time', async () => {
    const t = (
      await sb.admin('POST', '/companies', {
        name: 'Padaria Boa',
        balance: 5000,
        providers: { out: null },
        permissions: ['charge'],
      })
    ).body
    const pages = [(await sb.admin('GET', '/companies?limit=2')).body]
    while (pages.at(-1).next_cursor)
      pages.push(
        (await sb.admin('GET', `/companies?limit=2&cursor=${pages.at(-1).next_cursor}`)).body,
      )
    expect(pages.map((p) => p.data.length)).toEqual([2, 1])
    expect(pages.every((p) => p.total === 3)).toBe(true)
    const listed = pages.flatMap((p) => p.data)
    expect(listed.map((co: { company_id: string }) => co.company_id).sort()).toEqual(
      [t.company_id, 'loja-exemplo', 'loja-inativa'].sort(),
    )
    expect(listed.find((co: { company_id: string }) => co.company_id === t.company_id)).toEqual({
      company_id: t.company_id,
      name: 'Padaria Boa',
      api_active: true,
      users: [
        {
          user_id: t.user_id,
          name: 'Padaria Boa',
          permissions: ['charge'],
          balance: 5000,
          providers: { in: { name: expect.any(String), operations: ['charge'] }, out: null },
          credentials: [{ client_id: t.client_id, environment: 'sandbox', revoked: false }],
        },
      ],
    })
    expect(JSON.stringify(pages)).not.toContain(t.client_secret)
  })

  it('shows a company its own only', async () => {
    const own = (await sb.request('GET', '/_sandbox/companies', { auth: AUTH.inactive })).body
    expect(own.data.map((co: { company_id: string }) => co.company_id)).toEqual(['loja-inativa'])
    expect(own.total).toBe(1)
  })
})

describe('PATCH and DELETE /_sandbox/companies/{id}', () => {
  it('deactivating takes effect at once: 403 on POSTs, company shows api_active false', async () => {
    const patched = await sb.admin('PATCH', '/companies/loja-exemplo', { api_active: false })
    expect(patched.body).toMatchObject({ company_id: 'loja-exemplo', api_active: false })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).status,
    ).toBe(403)
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).body.api_active,
    ).toBe(false)
    await sb.admin('PATCH', '/companies/loja-exemplo', { api_active: true })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).status,
    ).toBe(200)
  })

  it('deleting removes the tenant and everything it owns', async () => {
    const t = (await sb.admin('POST', '/companies', { balance: 1000 })).body
    const before = rowCounts(sb)
    const charge = (await contract(t.token, 'POST', '/hub/transactions/in', { amount: 100 })).body
      .transaction_id
    expect((await sb.admin('DELETE', `/companies/${t.company_id}`)).status).toBe(204)
    expect((await contract(t.token, 'GET', '/user/company')).status).toBe(401)
    expect((await sb.admin('GET', `/charges/${charge}`)).status).toBe(404)
    expect(rowCounts(sb).charges).toBe(before.charges)
    expect(
      sb.sandbox.store.db
        .prepare('SELECT count(*) FROM events WHERE company_id = ?')
        .pluck()
        .get(t.company_id),
    ).toBe(0)
    expect((await sb.admin('DELETE', `/companies/${t.company_id}`)).status).toBe(404)
  })

  it('404 for unknown companies, 422 for bad changes', async () => {
    expect((await sb.admin('PATCH', '/companies/ghost', { api_active: false })).status).toBe(404)
    expect((await sb.admin('PATCH', '/companies/loja-exemplo', { api_active: 'no' })).status).toBe(
      422,
    )
    expect(sb.sandbox.store.identity.company('loja-exemplo')?.apiActive).toBe(true)
  })
})

describe('users: Providers and balance', () => {
  it('PUT providers changes what the user can do at once', async () => {
    const res = await sb.admin('PUT', '/users/loja-exemplo-user/providers', {
      out: { name: 'Lento', operations: [] },
    })
    expect(res.body).toEqual({
      in: { name: 'Banco Exemplo', operations: ['charge'] },
      out: { name: 'Lento', operations: [] },
    })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/out', {
          auth: AUTH.main,
          json: transfer,
        })
      ).status,
    ).toBe(501)
    await sb.admin('PUT', '/users/loja-exemplo-user/providers', { out: null })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/out', {
          auth: AUTH.main,
          json: transfer,
        })
      ).status,
    ).toBe(422)
    expect((await sb.admin('PUT', '/users/ghost/providers', { out: null })).status).toBe(404)
  })

  it('PUT balance sets it through an adjustment entry', async () => {
    const res = await sb.admin('PUT', '/users/loja-exemplo-empty/balance', { amount: 2500 })
    expect(res.body.balance).toBe(2500)
    expect(res.body.entries[0]).toMatchObject({ amount: 2500, kind: 'adjustment' })
    const down = await sb.admin('PUT', '/users/loja-exemplo-empty/balance', { amount: 1000 })
    expect(down.body.entries[0]).toMatchObject({ amount: -1500, kind: 'adjustment' })
    expect(sb.sandbox.store.ledger.sumOfEntries('loja-exemplo-empty')).toBe(1000)
    expect(
      (await sb.admin('PUT', '/users/loja-exemplo-empty/balance', { amount: -1 })).status,
    ).toBe(422)
  })
})

describe('MAX_COMPANIES', () => {
  it('bounds the companies of a sandbox: tenants and scenarios past it answer 422 naming the limit, and write nothing', async () => {
    const small = await startTestSandbox({ maxCompanies: 8 })
    try {
      const start = small.sandbox.store.identity.companyCount()
      const created: string[] = []
      for (let i = start; i < 8; i++) {
        const r = await small.admin('POST', '/companies', { name: `T${i}` })
        expect(r.status).toBe(201)
        created.push(r.body.company_id)
      }
      const refused = await small.admin('POST', '/companies', { name: 'one too many' })
      expect(refused.status).toBe(422)
      expect(refused.body).toEqual({
        detail: 'this sandbox holds at most 8 companies (MAX_COMPANIES): delete some, or reset',
      })
      const scenario = await small.admin('POST', '/scenarios', {
        document: { companies: [{ id: 'extra', name: 'Extra', users: [] }] },
      })
      expect([scenario.status, scenario.body.detail]).toEqual([
        422,
        'this sandbox holds at most 8 companies (MAX_COMPANIES): delete some, or reset',
      ])
      expect(small.sandbox.store.identity.companyCount()).toBe(8)
      expect(small.sandbox.store.identity.company('extra')).toBeUndefined()
      // Replacing a company it holds adds none; removing one makes room.
      expect(
        (
          await small.admin('POST', '/scenarios', {
            document: { companies: [{ id: 'loja-exemplo', name: 'Loja Nova', users: [] }] },
          })
        ).status,
      ).toBe(200)
      expect((await small.admin('DELETE', `/companies/${created[0]}`)).status).toBe(204)
      expect((await small.admin('POST', '/companies', { name: 'room again' })).status).toBe(201)
    } finally {
      await small.close()
    }
  })

  it('refuses to start with a scenario that holds more companies than the limit, saying so', async () => {
    await expect(startTestSandbox({ maxCompanies: 1 })).rejects.toThrow(
      /the scenario default cannot be loaded: this sandbox holds at most 1 company \(MAX_COMPANIES\)/,
    )
  })
})
