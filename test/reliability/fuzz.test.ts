// Bad input, property-based: random bodies, headers and paths against every route of the
// contract and the control plane. Never a 5xx, errors are always a JSON {detail}, and a refused
// request changes nothing in the store.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
let routes: { method: string; path: string }[]
beforeAll(async () => {
  sb = await startTestSandbox()
  const docs = [
    (await sb.request('GET', '/openapi.json')).body,
    (await sb.request('GET', '/_sandbox/openapi.json')).body,
  ]
  routes = docs.flatMap((doc, i) =>
    Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => ({
        method: m.toUpperCase(),
        path: (i === 0 ? '/api/v1' : '/_sandbox') + path,
      })),
    ),
  )
})
afterAll(() => sb.close())

const state = () => {
  const db = sb.sandbox.store.db
  const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get()
  const tables = [
    'charges',
    'transfers',
    'ledger_entries',
    'events',
    'companies',
    'users',
    'credentials',
    'providers',
    'pix_keys',
    'rules',
    'outcomes',
    'faults',
    'webhooks',
    'deliveries',
  ]
  return JSON.stringify([
    tables.map(count),
    db.prepare('SELECT sum(balance) FROM users').pluck().get(),
    sb.sandbox.store.setup.settings(),
    sb.sandbox.clock.state(),
  ])
}

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', 'null', '{', '[]', '{"amount":', '\u0000', '💥'.repeat(50)),
)
// Nesting far deeper than anything stores or echoes: arrays, objects, or a field holding either.
const deepJson = fc
  .record({
    depth: fc.integer({ min: 60, max: 20_000 }),
    open: fc.constantFrom('[', '{"a":', '[{"b":'),
    leaf: fc.constantFrom('1', '"x"', '{}', '[]', 'null'),
    field: fc.constantFrom('', 'amount', 'document', 'pix', 'url'),
  })
  .map(({ depth, open, leaf, field }) => {
    const close = { '[': ']', '{"a":': '}', '[{"b":': '}]' }[open]!
    const value = open.repeat(depth) + leaf + close.repeat(depth)
    return field ? `{"${field}":${value}}` : value
  })
const anyJson = fc.oneof(
  fc.json({ maxDepth: 4 }),
  deepJson,
  fc
    .record(
      {
        amount: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
        pix_key: fc.string(),
        pix_type: fc.constantFrom('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'x'),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc
    .dictionary(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'status',
        'seconds',
        'url',
        'operation',
        'document',
        'qr_code',
        'amount',
        'name',
      ),
      fc.jsonValue({ maxDepth: 3 }),
    )
    .map((o) => JSON.stringify(o)),
)
const segment = fc.oneof(
  fc.constantFrom(
    'x',
    '..',
    '%00',
    '%2e%2e',
    'loja-exemplo',
    'loja-exemplo-user',
    '💥',
    'a'.repeat(300),
  ),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
)

describe('property: any request', () => {
  it('never gets a 5xx, gets JSON errors, and changes nothing when refused', async () => {
    const request = fc.record({
      route: fc.nat(),
      fill: segment,
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), {
        nil: undefined,
      }),
      auth: fc.constantFrom('none', 'basic', 'admin', 'garbage'),
      type: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
      ),
      body: fc.oneof(anyJson, anyText),
      query: fc.oneof(
        fc.constant(''),
        fc
          .dictionary(
            fc.constantFrom('limit', 'cursor', 'status', 'company_id', 'format', 'type'),
            fc.string({ maxLength: 12 }),
          )
          .map((q) => '?' + new URLSearchParams(q).toString()),
      ),
      extra: fc.option(segment, { nil: undefined }),
    })
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const route = routes[r.route % routes.length]!
        const method = r.method ?? route.method
        let path = route.path.replace(/\{\w+\}/g, r.fill)
        if (r.extra) path += '/' + r.extra
        const auth = {
          none: undefined,
          basic: AUTH.main,
          admin: `Bearer ${sb.adminToken}`,
          garbage: 'Basic Og==',
        }[r.auth]
        const before = state()
        const res = await sb.request(method, path + r.query, {
          auth,
          body: method === 'GET' ? undefined : r.body,
          headers: r.type ? { 'content-type': r.type } : {},
        })
        expect(res.status, `${method} ${path}`).toBeLessThan(500)
        // Nothing a client sends may make a later read fail: the journal shows this request.
        const journal = await sb.admin('GET', '/requests?limit=1')
        expect(journal.status, `journal after ${method} ${path}`).toBe(200)
        if (res.status >= 400) {
          expect(res.headers.get('content-type')).toMatch(/^application\/json/)
          expect(res.body).toHaveProperty('detail')
          expect(state(), `${method} ${path} ${res.status}`).toBe(before)
        }
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 1500),
        seed: Number(process.env.FUZZ_SEED ?? 20261121),
      },
    )
  })
})
