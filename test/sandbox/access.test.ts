// Control-plane authorization (docs/CONTROL-PLANE.md): the admin token sees everything; a company's own Basic credentials see
// that company only (other ids 404) and cannot run global operations (403). An operation a
// company's control offers a helper for (src/client/helpers.ts, not `admin`) is not one of those.
// And what a company reads does not move with what another company does (a count or a sum over
// every company's rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HELPERS } from '../../src/client/helpers.js'
import { adminOnly } from '../http/documented.js'
import {
  AUTH,
  basic,
  startTestSandbox,
  storeSnapshot,
  tenantDoc,
  type TestSandbox,
} from '../harness.js'

let sb: TestSandbox
let mine: string
let theirs: string
const OTHER = basic('other', 'other-secret')
/** An HTTP status in prose: not a count or a size ("at most 500 entries"). */
const STATUS_NAMED =
  /\b([245]\d\d)\b(?!\s*(?:ms|s|seconds|characters|code points|entries|records|items|bytes|KiB|MB)\b)/g
const ADMIN = () => `Bearer ${sb.adminToken}`

beforeAll(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('other', { balance: 5000 })] })
  mine = (
    await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 100 },
    })
  ).body.transaction_id
  theirs = (
    await sb.request('POST', '/api/v1/hub/transactions/in', { auth: OTHER, json: { amount: 200 } })
  ).body.transaction_id
})
afterAll(() => sb.close())

const as = (auth: string | undefined, method: string, path: string, json?: unknown) =>
  sb.request(method, `/_sandbox${path}`, { auth, json })

describe('control plane access', () => {
  it('401 without credentials, with a wrong admin token, or with bad Basic credentials', async () => {
    for (const auth of [
      undefined,
      'Bearer wrong-token',
      basic('sandbox-client', 'nope'),
      AUTH.production,
    ]) {
      const res = await as(auth, 'GET', '/charges')
      expect(res).toMatchObject({ status: 401, body: { detail: 'Not authenticated' } })
      expect(res.headers.get('www-authenticate'), auth).toBe('Basic, Bearer')
    }
  })

  it.each([
    ['POST', '/reset', {}],
    ['GET', '/scenarios', undefined],
    ['POST', '/scenarios', { name: 'default' }],
    ['POST', '/companies', {}],
    ['PATCH', '/companies/loja-exemplo', { api_active: false }],
    ['DELETE', '/companies/loja-exemplo', undefined],
    ['PUT', '/users/loja-exemplo-user/providers', { in: null }],
    ['GET', '/clock', undefined],
    ['POST', '/clock/advance', { seconds: 1 }],
    ['POST', '/clock/freeze', undefined],
  ])('403 for global operation %s %s with company credentials', async (method, path, json) => {
    const res = await as(AUTH.main, method, path, json)
    expect(res.status).toBe(403)
    expect(res.body.detail).toMatch(/admin token/)
  })

  it("a company reads its own charges and gets 404 for another company's", async () => {
    expect((await as(AUTH.main, 'GET', `/charges/${mine}`)).status).toBe(200)
    expect(await as(AUTH.main, 'GET', `/charges/${theirs}`)).toMatchObject({
      status: 404,
      body: { detail: 'Charge not found' },
    })
    expect((await as(OTHER, 'GET', `/charges/${theirs}`)).status).toBe(200)
    expect((await as(OTHER, 'GET', `/charges/${mine}`)).status).toBe(404)
    expect((await as(OTHER, 'POST', `/charges/${mine}/pay`)).status).toBe(404)
    expect(sb.sandbox.store.charges.byId(mine)?.status).toBe('pending')
  })

  it('lists only its own company, and 404 when it asks for another', async () => {
    const own = await as(AUTH.main, 'GET', '/charges')
    expect(own.body.data.map((c: { company_id: string }) => c.company_id)).toEqual(['loja-exemplo'])
    expect((await as(AUTH.main, 'GET', '/charges?company_id=other')).status).toBe(404)
    const all = await sb.admin('GET', '/charges')
    expect(all.body.data.map((c: { company_id: string }) => c.company_id).sort()).toEqual([
      'loja-exemplo',
      'other',
    ])
    expect((await sb.admin('GET', '/charges?company_id=other')).body.data).toHaveLength(1)
  })

  it("reads and sets its own users' balances only", async () => {
    expect((await as(AUTH.main, 'GET', '/users/loja-exemplo-user/balance')).status).toBe(200)
    expect((await as(AUTH.main, 'GET', '/users/other-user/balance')).status).toBe(404)
    expect((await as(AUTH.main, 'PUT', '/users/other-user/balance', { amount: 1 })).status).toBe(
      404,
    )
    expect(sb.sandbox.store.ledger.balance('other-user')).toBe(5000)
  })

  it('whoami tells the ids behind Basic credentials, and nulls for the admin token', async () => {
    expect((await as(OTHER, 'GET', '/whoami')).body).toEqual({
      company_id: 'other',
      user_id: 'other-user',
      client_id: 'other',
      environment: 'sandbox',
    })
    expect((await sb.admin('GET', '/whoami')).body).toEqual({
      company_id: null,
      user_id: null,
      client_id: null,
      environment: 'sandbox',
    })
  })

  it('health needs no credentials and tells the virtual time', async () => {
    expect((await as(undefined, 'GET', '/health')).body).toMatchObject({
      status: 'ok',
      environment: 'sandbox',
      scenario: 'default',
      now: '2026-03-01T12:00:00.000000Z',
    })
  })
})

describe("every route of the control document, walked with another company's credentials", () => {
  type Json = Record<string, any>
  let doc: Json
  /** A record of loja-exemplo's for each id a path names, by the collection it sits in. */
  const own: Record<string, string> = {}
  beforeAll(async () => {
    doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
    const transfer = await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    const hook = await as(AUTH.main, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hook' })
    const delivery = await as(AUTH.main, 'POST', `/webhooks/${hook.body.id}/test`)
    Object.assign(own, {
      'charges/transaction_id': mine,
      'transfers/transaction_id': transfer.body.transaction_id,
      'webhooks/webhook_id': hook.body.id,
      'deliveries/delivery_id': delivery.body.id,
      'companies/company_id': 'loja-exemplo',
      'users/user_id': 'loja-exemplo-user',
    })
  })

  /** The journal lists the reads themselves: each read's answer holds the reads before it. */
  const JOURNAL = ['GET /requests', 'GET /requests/count']
  /** Tells the caller's own ids: the admin token's are nulls. */
  const WHOAMI = 'GET /whoami'

  /** Each operation with loja-exemplo's ids in its path and its request example as its body; deletions last, the deepest first. */
  const operations = () =>
    Object.entries<Json>(doc.paths)
      .flatMap(([template, ops]) =>
        Object.entries<Json>(ops).map(([method, op]) => {
          const operation = `${method.toUpperCase()} ${template}`
          const path = template.replace(/([\w-]+)\/\{(\w+)\}/g, (_, collection, name) => {
            const id = own[`${collection}/${name}`]
            expect(id, `${operation}: no record of loja-exemplo's for {${name}} here`).toBeDefined()
            return `${collection}/${encodeURIComponent(id!)}`
          })
          const media = op.requestBody?.content['application/json']
          const ref = media?.schema.$ref?.split('/').pop()
          const json =
            media &&
            (media.example ??
              (ref ? doc.components.schemas[ref].example : media.schema.example) ??
              {})
          return { operation, method: method.toUpperCase(), path, op, json }
        }),
      )
      .sort(
        (a, b) =>
          Number(a.method === 'DELETE') - Number(b.method === 'DELETE') ||
          (a.method === 'DELETE' ? b.path.length - a.path.length : 0),
      )

  it("refuses another company's ids in every path (404, or 403 where only the admin may), writing nothing; the owner is not refused", async () => {
    const walked = operations().filter((o) => o.operation.includes('{'))
    expect(walked.length).toBeGreaterThan(15)
    for (const { operation, method, path, json } of walked) {
      const before = storeSnapshot(sb)
      const refused = await as(OTHER, method, path, json)
      expect([403, 404], `${operation} as another company: ${refused.text}`).toContain(
        refused.status,
      )
      expect(storeSnapshot(sb), operation).toEqual(before)
      const owner = await as(AUTH.main, method, path, json)
      expect(owner.status, `${operation} as its owner: ${owner.text}`).not.toBe(404)
      if (HELPERS.some((h) => 'operation' in h && h.operation === operation && !h.admin))
        expect(owner.status, `${operation}: a company's control has a helper for it`).not.toBe(403)
      // A route its owner may call answers another company's ids as unknown ones: a 403 there
      // would tell that the id exists and is someone else's.
      if (owner.status !== 403)
        expect(refused.status, `${operation} as another company: ${refused.text}`).toBe(404)
    }
  })

  it("refuses another company's company_id in every query, and lists only the caller's own", async () => {
    for (const { operation, path, op } of operations().filter(
      (o) => o.method === 'GET' && !o.operation.includes('{'),
    )) {
      if ((op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'company_id'))
        expect((await as(OTHER, 'GET', `${path}?company_id=loja-exemplo`)).status, operation).toBe(
          404,
        )
      const listed = await as(OTHER, 'GET', path)
      if (listed.status !== 200) continue
      const items: Json[] = Array.isArray(listed.body?.data) ? listed.body.data : []
      const companies = new Set(items.map((i) => i.company_id).filter((c) => c != null))
      expect([...companies], operation).toEqual(companies.size ? ['other'] : [])
    }
  })

  it("answers a query naming another company's id as one naming an id that does not exist", async () => {
    // loja-exemplo's ids, by the query parameter that would name them.
    const hers: Record<string, string> = {
      company_id: 'loja-exemplo',
      user_id: 'loja-exemplo-user',
      transaction_id: mine,
    }
    // The caller's own ids, for the path.
    const callers: Record<string, string> = {
      'companies/company_id': 'other',
      'users/user_id': 'other-user',
      'charges/transaction_id': theirs,
    }
    let asked = 0
    for (const { operation, op } of operations().filter(
      (o) => o.method === 'GET' && !JOURNAL.includes(o.operation),
    )) {
      // The caller's own id in each path id, where it has a record of that kind.
      let named = true
      const path = operation.slice('GET '.length).replace(/([\w-]+)\/\{(\w+)\}/g, (_, c, n) => {
        named &&= `${c}/${n}` in callers
        return `${c}/${callers[`${c}/${n}`]}`
      })
      if (!named) continue
      for (const { name } of (op.parameters ?? []).filter(
        (p: Json) => p.in === 'query' && p.name in hers,
      )) {
        const answer = async (id: string) => {
          const r = await as(OTHER, 'GET', `${path}?${name}=${encodeURIComponent(id)}`)
          return { status: r.status, body: r.body }
        }
        expect(await answer(hers[name]!), `${operation}?${name}= another company's`).toEqual(
          await answer(`no-such-${name}`),
        )
        asked++
      }
    }
    expect(asked).toBeGreaterThan(2)
  })

  it("answers each of a company's reads the same, whatever another company does meanwhile", async () => {
    const reads = operations().filter((o) => o.method === 'GET' && !JOURNAL.includes(o.operation))
    expect(reads.length).toBeGreaterThan(15)
    const round = async () => {
      const answers: Record<string, unknown> = {}
      for (const { operation, path } of reads) {
        const reply = await as(AUTH.main, 'GET', path)
        answers[operation] = { status: reply.status, body: reply.body }
      }
      return answers
    }
    const before = await round()
    // The other company is paid a charge and sends a transfer.
    const charge = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: OTHER,
      json: { amount: 300 },
    })
    expect((await sb.admin('POST', `/charges/${charge.body.transaction_id}/pay`, {})).status).toBe(
      200,
    )
    const sent = await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: OTHER,
      json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    expect(sent.status).toBe(200)
    expect(await round()).toEqual(before)
  })

  it("answers each of a company's reads to its own credentials as to the admin token, whichever of its users made the records", async () => {
    // Two other users of loja-exemplo's make records: one is paid a charge and sends a transfer,
    // one makes a charge left pending. The company's credentials are its first user's.
    const paid = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.emptyBalance,
      json: { amount: 500 },
    })
    expect((await sb.admin('POST', `/charges/${paid.body.transaction_id}/pay`, {})).status).toBe(
      200,
    )
    const sent = await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.emptyBalance,
      json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    expect(sent.body.status).toBe('success')
    const pending = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.chargesOnly,
      json: { amount: 700 },
    })
    expect(pending.status).toBe(200)
    let compared = 0
    for (const { operation, path, op } of operations().filter(
      (o) => o.method === 'GET' && !JOURNAL.includes(o.operation) && o.operation !== WHOAMI,
    )) {
      const own = await as(AUTH.main, 'GET', path)
      if (own.status !== 200) continue
      // The admin token names the company where a company's credentials imply it; a list that
      // cannot name it (the companies) is compared on the company's own items.
      const names = (op.parameters ?? []).some(
        (p: Json) => p.in === 'query' && p.name === 'company_id',
      )
      const admin = await as(ADMIN(), 'GET', names ? `${path}?company_id=loja-exemplo` : path)
      const seen = (body: Json) =>
        names || !Array.isArray(body?.data)
          ? body
          : body.data.filter((item: Json) => item.company_id === 'loja-exemplo')
      expect(
        seen(own.body),
        `${operation}: loja-exemplo's own credentials, then the admin token`,
      ).toEqual(seen(admin.body))
      compared++
    }
    expect(compared).toBeGreaterThan(10)
  })

  // Last: its owner's calls go through (a webhook deleted, the journal cleared).
  it('publishes who may call each operation as it answers: a 403 to a company only where the admin token alone is declared', async () => {
    for (const { operation, method, path, op, json } of operations()) {
      const owner = await as(AUTH.main, method, path, json)
      expect(owner.status === 403, `${operation}: ${owner.text}`).toBe(adminOnly(op))
      expect('403' in op.responses, `${operation} declares its 403 only where it answers one`).toBe(
        adminOnly(op),
      )
      // And a status its words name ("another company's id answers 404") is one it declares.
      for (const [, named] of `${op.summary ?? ''} ${op.description ?? ''}`.matchAll(STATUS_NAMED))
        expect(Object.keys(op.responses), `${operation}'s description names ${named}`).toContain(
          named,
        )
    }
  })
})
