// DNS rebinding (docs/SECURITY.md#dns-rebinding): on a loopback HOST the server answers only to
// the names it is known by (127.0.0.1, localhost, [::1], PUBLIC_URL's, ALLOWED_HOSTS'), on every
// route, before anything else; beyond loopback it answers to any unless ALLOWED_HOSTS is set.
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

const opened: TestSandbox[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})
const start = async (overrides: Parameters<typeof startTestSandbox>[0] = {}) => {
  const s = await startTestSandbox(overrides)
  opened.push(s)
  return s
}

/** One request to the sandbox's port with the given Host header. */
function withHost(
  s: TestSandbox,
  host: string,
  path: string,
  method = 'GET',
  auth = AUTH.main,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: s.port,
        method,
        path,
        headers: { host, authorization: auth },
        agent: false,
      },
      (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const ROUTES = [
  '/api/v1/user/company',
  '/_sandbox/webhooks',
  '/_sandbox/requests',
  '/_sandbox/ui',
  '/_sandbox/ui/sign-in',
  '/docs',
  '/openapi.json',
  '/pix/qr/v2/nope',
  '/nowhere',
]

describe('on a loopback HOST', () => {
  it('refuses every route to a Host it is not known by, with a 421 that names it and the setting', async () => {
    const s = await start()
    for (const path of ROUTES) {
      const r = await withHost(s, `rebind.example:${s.port}`, path)
      expect([path, r.status, JSON.parse(r.body)]).toEqual([
        path,
        421,
        {
          detail: `Host rebind.example:${s.port} is not a name this sandbox answers to (a guard against DNS rebinding): reach it at 127.0.0.1 or localhost, or add the name to ALLOWED_HOSTS`,
        },
      ])
    }
    // The refused requests never reached the app: nothing of them in the journal.
    const journal = (await s.admin('GET', '/requests?limit=500')).body.data
    expect(journal.filter((e: { path: string }) => ROUTES.includes(e.path))).toEqual([])
  })

  it("answers to 127.0.0.1, localhost and [::1] on any port, and to PUBLIC_URL's name", async () => {
    const s = await start({ publicUrl: 'http://pix.test:9999' })
    for (const host of [
      `127.0.0.1:${s.port}`,
      'localhost',
      `LOCALHOST:${s.port}`,
      '[::1]:1234',
      'pix.test:9999',
      'pix.test',
    ]) {
      expect([host, (await withHost(s, host, '/api/v1/user/company')).status]).toEqual([host, 200])
    }
    for (const host of [
      '127.0.0.2',
      'localhost.rebind.example',
      '[::2]',
      'pix.test.rebind.example',
      `${s.port}`,
    ]) {
      expect([host, (await withHost(s, host, '/api/v1/user/company')).status]).toEqual([host, 421])
    }
  })

  it('answers to the names ALLOWED_HOSTS adds: exact ones, and .domain for it and every name under it', async () => {
    const s = await start({ allowedHosts: ['sandbox.internal', '.dev.test'] })
    for (const host of ['sandbox.internal:8080', 'dev.test', 'api.dev.test:3000', '127.0.0.1'])
      expect([host, (await withHost(s, host, '/docs')).status]).toEqual([host, 200])
    for (const host of ['other.internal', 'xdev.test'])
      expect([host, (await withHost(s, host, '/docs')).status]).toEqual([host, 421])
  })

  it('answers to any Host with ALLOWED_HOSTS=*', async () => {
    const s = await start({ allowedHosts: ['*'] })
    expect((await withHost(s, 'rebind.example', '/api/v1/user/company')).status).toBe(200)
  })
})

describe('beyond loopback (HOST=0.0.0.0, a container)', () => {
  it('answers to any Host, unless ALLOWED_HOSTS is set', async () => {
    const open = await start({ host: '0.0.0.0' })
    expect((await withHost(open, 'pix-sandbox:8080', '/api/v1/user/company')).status).toBe(200)
    const guarded = await start({ host: '0.0.0.0', allowedHosts: ['pix-sandbox'] })
    expect((await withHost(guarded, 'pix-sandbox:8080', '/api/v1/user/company')).status).toBe(200)
    expect(
      (await withHost(guarded, `localhost:${guarded.port}`, '/api/v1/user/company')).status,
    ).toBe(200)
    expect((await withHost(guarded, 'rebind.example', '/api/v1/user/company')).status).toBe(421)
  })
})
