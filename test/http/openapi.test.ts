// The published documents: /openapi.json is the contract alone (so a generated client is a client
// of the real service); the control plane has its own; /docs shows both, offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox({ publicUrl: 'http://localhost:8080' })))
afterAll(() => sb.close())

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with exactly the operations of the contract', async () => {
    const { status, body } = await sb.request('GET', '/openapi.json')
    expect(status).toBe(200)
    expect(body.openapi).toBe('3.1.0')
    expect(body.servers).toEqual([{ url: '/api/v1' }])
    const operations = Object.entries(body.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual([
      'GET /oauth/user/company',
      'GET /user/company',
      'POST /hub/transactions/in',
      'POST /hub/transactions/out',
    ])
    expect(JSON.stringify(body)).not.toMatch(/\/_sandbox|X-Sandbox-Outcome/i)
  })

  it('publishes the schemas the server validates with', async () => {
    const { body } = await sb.request('GET', '/openapi.json')
    const charge = body.components.schemas.ChargeRequest
    expect(charge.required).toEqual(['amount'])
    expect(charge.properties.amount.type).toBe('integer')
    expect(body.components.schemas.TransferRequest.properties.pix_type.enum).toEqual([
      'CPF',
      'CNPJ',
      'EMAIL',
      'PHONE',
    ])
    expect(body.paths['/hub/transactions/in'].post.security).toEqual([{ basicAuth: [] }])
  })

  it('does not drift unnoticed (snapshot)', async () => {
    const { body } = await sb.request('GET', '/openapi.json')
    await expect(JSON.stringify(body, null, 2) + '\n').toMatchFileSnapshot(
      './__snapshots__/openapi.contract.json',
    )
  })
})

describe('GET /_sandbox/openapi.json and /docs', () => {
  it('documents the control plane separately', async () => {
    const { body } = await sb.request('GET', '/_sandbox/openapi.json')
    expect(body.openapi).toBe('3.1.0')
    expect(Object.keys(body.paths)).toContain('/health')
    expect(Object.keys(body.paths)).not.toContain('/hub/transactions/in')
  })

  it('names a server that works from whichever host the page was opened on ("Try it out")', async () => {
    // PUBLIC_URL says localhost (beforeAll); the README opens /docs at 127.0.0.1.
    for (const host of ['127.0.0.1', 'localhost']) {
      const origin = `http://${host}:${sb.port}`
      for (const [doc, path] of [
        ['/openapi.json', '/user/company'],
        ['/_sandbox/openapi.json', '/health'],
      ] as const) {
        const { body } = await sb.request('GET', doc)
        // What Swagger UI does: resolve the server URL against the document's own address.
        const target = new URL(body.servers[0].url + path, origin + doc)
        expect(target.origin, `${doc} at ${host}`).toBe(origin)
        const res = await fetch(target, {
          headers: {
            authorization:
              'Basic ' + Buffer.from('sandbox-client:sandbox-secret').toString('base64'),
          },
        })
        expect(res.status, target.href).toBe(200)
      }
    }
  })

  it("cannot be framed by another site, and runs only its own scripts (the dashboard's headers)", async () => {
    const page = await sb.request('GET', '/docs')
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('referrer-policy')).toBe('same-origin')
    expect(page.headers.get('cache-control')).toBe('no-store')
  })

  it('serves an interactive page whose assets come from this server', async () => {
    const page = await sb.request('GET', '/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const assets = page.text.match(/\/docs\/assets\/[\w.-]+/g)!
    const script = await (await fetch(sb.url + assets.find((a) => a.endsWith('/docs.js'))!)).text()
    expect(script).toContain('/openapi.json')
    expect(script).toContain('/_sandbox/openapi.json')
    expect(page.text + script).not.toMatch(/https?:\/\/(?!localhost)/)
    for (const asset of assets) {
      const res = await fetch(sb.url + asset)
      expect(res.status, asset).toBe(200)
      expect(res.headers.get('x-content-type-options'), asset).toBe('nosniff')
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(
        asset.includes('swagger-ui') ? 1000 : 10,
      )
    }
  })
})
