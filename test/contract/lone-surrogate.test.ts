// A lone surrogate (`"\ud800"`), which JSON's escapes can write and UTF-8 cannot
// (docs/CONTRACT.md#bodies): the contract answers as FastAPI does, and what the control plane
// stores of one breaks no later read. Every string of a contract body with a published length is
// one of pydantic's constrained strings, which refuse it (read from /openapi.json: a new field is
// covered without being named here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const post = (path: string, body: string, auth: string) =>
  sb.request('POST', path, { auth, body, headers: { 'content-type': 'application/json' } })

describe('a lone surrogate', () => {
  it("is refused as FastAPI refuses it: pydantic's constrained string, then the 422 it cannot write", async () => {
    const body = '{"amount":1000,"description":"\\ud800"}'
    sb.apply({ settings: { validation_errors: 'fastapi' } })
    const fastapi = await post('/api/v1/hub/transactions/in', body, AUTH.main)
    expect([fastapi.status, fastapi.text]).toEqual([500, 'Internal Server Error'])
    sb.apply({ settings: { validation_errors: 'simple' } })
    const simple = await post('/api/v1/hub/transactions/in', body, AUTH.main)
    expect([simple.status, simple.body]).toEqual([422, { detail: 'description: must be a string' }])
    // The journal keeps the request as sent, and answers it in JSON's escape, which JSON can carry.
    const journal = await sb.request('GET', '/_sandbox/requests?limit=2', {
      auth: `Bearer ${sb.adminToken}`,
    })
    expect(journal.status).toBe(200)
    expect(journal.text).toContain('"description":"\\ud800"')
    expect(journal.body.data.map((e: { request: { body: unknown } }) => e.request.body)).toEqual([
      JSON.parse(body),
      JSON.parse(body),
    ])
  })

  it('is refused in every string of a contract body with a published length, as in description', async () => {
    const doc = (await sb.request('GET', '/openapi.json')).body
    const schemaOf = (s: { $ref?: string }) =>
      s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s
    let checked = 0
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      const media = ops.post?.requestBody?.content['application/json']
      if (!media) continue
      const schema = schemaOf(media.schema)
      for (const [field, property] of Object.entries<any>(schema.properties)) {
        if (property.maxLength === undefined) continue
        const body = JSON.stringify({ ...schema.example, [field]: 'LONE' }).replace(
          '"LONE"',
          '"\\ud800"',
        )
        const reply = await post(`/api/v1${path}`, body, AUTH.main)
        expect([reply.status, reply.body], `${path} ${field}`).toEqual([
          422,
          { detail: `${field}: must be a string` },
        ])
        checked++
      }
    }
    expect(checked).toBeGreaterThan(1)
  })

  it('in a control-plane field is stored as U+FFFD, and every later read shows that', async () => {
    const created = await post(
      '/_sandbox/companies',
      '{"name":"Loja \\ud800 X"}',
      `Bearer ${sb.adminToken}`,
    )
    expect(created.status).toBe(201)
    const name = 'Loja \ufffd X'
    const list = await sb.admin('GET', '/companies')
    expect(list.body.data.map((c: { name: string }) => c.name)).toContain(name)
    const signIn = await fetch(`${sb.url}/_sandbox/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: sb.adminToken }),
      redirect: 'manual',
      headers: { origin: sb.url },
    })
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!
    // The overview lists the companies; the journal's page shows the contract's request above.
    const overview = await fetch(`${sb.url}/_sandbox/ui/`, { headers: { cookie } })
    expect([overview.status, (await overview.text()).includes(name)]).toEqual([200, true])
    const requests = await fetch(`${sb.url}/_sandbox/ui/requests`, { headers: { cookie } })
    expect(requests.status).toBe(200)
    expect(await requests.text()).toContain('description')
    // The company's charges: its name in their code, folded to ASCII as a BR Code's is.
    const charge = await post(
      '/api/v1/hub/transactions/in',
      '{"amount":1000}',
      `Basic ${Buffer.from(`${created.body.client_id}:${created.body.client_secret}`).toString('base64')}`,
    )
    expect(charge.status).toBe(200)
    expect(charge.body.qr_code_name).toMatch(/^Loja X #\d+$/)
  })
})
