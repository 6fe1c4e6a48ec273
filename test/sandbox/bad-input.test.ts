// Every control endpoint refuses bad bodies and unknown ids with a clear {detail} and leaves the
// state as it was. The endpoints come from /_sandbox/openapi.json, so a new one is covered too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, storeSnapshot, type TestSandbox } from '../harness.js'

let sb: TestSandbox
let operations: { method: string; path: string; hasBody: boolean; hasParams: boolean }[]
beforeAll(async () => {
  sb = await startTestSandbox()
  const doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
  operations = Object.entries(
    doc.paths as Record<
      string,
      Record<string, { requestBody?: unknown; parameters?: { in: string }[] }>
    >,
  ).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: `/_sandbox${path}`,
      hasBody: op.requestBody !== undefined,
      hasParams: (op.parameters ?? []).some((p) => p.in === 'path'),
    })),
  )
})
afterAll(() => sb.close())

const BAD_BODIES = [
  'not json',
  '[1,2,3]',
  '"text"',
  '{"unexpected_field": true}',
  '{"amount": {"$gt": 0}}',
  '{"__proto__": {"admin": true}}',
]
const snapshot = () => storeSnapshot(sb)

describe('control plane bad input', () => {
  it('documents a good number of endpoints', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40)
  })

  it('answers unknown ids with 404 (or a 422 for the body) and changes nothing', async () => {
    for (const op of operations.filter((o) => o.hasParams)) {
      const path = op.path.replace(/\{\w+\}/g, 'no-such-id')
      const before = snapshot()
      const res = await sb.request(op.method, path, {
        auth: `Bearer ${sb.adminToken}`,
        json: op.hasBody ? {} : undefined,
      })
      expect([404, 422], `${op.method} ${path} -> ${res.status}`).toContain(res.status)
      expect(typeof res.body.detail, `${op.method} ${path}`).toBe('string')
      expect(snapshot(), `${op.method} ${path}`).toEqual(before)
    }
  })

  it('refuses malformed and unexpected bodies with 422 and changes nothing', async () => {
    for (const op of operations.filter((o) => o.hasBody && !o.hasParams)) {
      for (const body of BAD_BODIES) {
        const before = snapshot()
        const res = await sb.request(op.method, op.path, {
          auth: `Bearer ${sb.adminToken}`,
          body,
          headers: { 'content-type': 'application/json' },
        })
        expect(res.status, `${op.method} ${op.path} ${body}`).toBe(422)
        expect(res.body.detail, `${op.method} ${op.path}`).toEqual(expect.any(String))
        expect(snapshot(), `${op.method} ${op.path} ${body}`).toEqual(before)
      }
    }
  })

  it('refuses bad query strings with 422', async () => {
    for (const path of [
      '/charges?limit=0',
      '/charges?limit=abc',
      '/transfers?status=weird',
      '/events?limit=9999',
      '/requests?status=99',
      '/webhooks/deliveries?status=lost',
    ]) {
      const res = await sb.admin('GET', path)
      expect(res.status, path).toBe(422)
      expect(res.body.detail).toEqual(expect.any(String))
    }
  })

  it('never answers a 5xx to any endpoint, with or without credentials', async () => {
    for (const op of operations) {
      const path = op.path.replace(/\{\w+\}/g, 'x')
      for (const auth of [undefined, 'Basic !!!', 'Bearer nope', `Bearer ${sb.adminToken}`]) {
        const body = op.method === 'GET' ? undefined : '{'
        const res = await sb.request(op.method, path, {
          auth,
          body,
          headers: { 'content-type': 'application/json' },
        })
        expect(res.status, `${op.method} ${path} ${auth}`).toBeLessThan(500)
      }
    }
  })
})
