import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('revoked-client', { revoked: true })] })
})
afterEach(() => sb.close())

const b64 = (s: string) => Buffer.from(s).toString('base64')

describe('authentication', () => {
  const unauthenticated: [string, string | undefined][] = [
    ['the header is missing', undefined],
    ['the scheme is Bearer', `Bearer ${b64('sandbox-client:sandbox-secret')}`],
    ['the token is not base64', 'Basic %%%not-base64%%%'],
    ['the token has no colon', `Basic ${b64('sandbox-client')}`],
    ['the header has no token', 'Basic'],
    ['the client_id is unknown', basic('nobody', 'sandbox-secret')],
    ['the secret is wrong', basic('sandbox-client', 'wrong-secret')],
    ['the secret differs only in case', basic('sandbox-client', 'Sandbox-secret')],
    ['the credentials are revoked', basic('revoked-client', 'revoked-client-secret')],
    ['the credentials are production keys', AUTH.production],
  ]

  for (const [method, path, json] of [
    ['POST', '/api/v1/hub/transactions/in', { amount: 1000 }],
    [
      'POST',
      '/api/v1/hub/transactions/out',
      { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    ],
    ['GET', '/api/v1/user/company', undefined],
  ] as const) {
    it.each(unauthenticated)(`${method} ${path}: 401 when %s`, async (_case, auth) => {
      const res = await sb.request(method, path, { auth, json })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ detail: 'Not authenticated' })
      expect(res.headers.get('www-authenticate')).toBe('Basic')
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    })
  }

  it.each(['Basic', 'basic', 'BASIC', 'bAsIc'])(
    'accepts the scheme word written %s',
    async (scheme) => {
      const res = await sb.request('GET', '/api/v1/user/company', {
        auth: `${scheme} ${b64('sandbox-client:sandbox-secret')}`,
      })
      expect(res.status).toBe(200)
    },
  )

  it('accepts a secret that contains colons (only the first one separates)', async () => {
    sb.apply({
      companies: [
        {
          id: 'colon-co',
          name: 'Colon',
          users: [{ id: 'colon-u', credentials: [{ client_id: 'colon', client_secret: 'a:b:c' }] }],
        },
      ],
    })
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: basic('colon', 'a:b:c') })).status,
    ).toBe(200)
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: basic('colon', 'a:b') })).status,
    ).toBe(401)
  })

  it('stops accepting credentials as soon as their company is replaced without them', async () => {
    expect((await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(200)
    sb.apply({ companies: [{ id: 'loja-exemplo', name: 'Loja Exemplo Ltda', users: [] }] })
    expect((await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(401)
  })

  it('stores secrets hashed, never in clear', () => {
    const rows = sb.sandbox.store.db.prepare('SELECT * FROM credentials').all()
    expect(JSON.stringify(rows)).not.toContain('sandbox-secret')
  })
})
