// SEED and START_TIME: two fresh sandboxes given the same calls answer them byte for byte alike,
// the contract and the control plane, so that a team can snapshot what it gets.
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createLog, silentLog } from '../../src/log.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { AUTH, SCENARIOS_DIR } from '../harness.js'

const START = '2026-03-01T09:00:00.000250-03:00'
const started: RunningSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()))
})

async function fresh(env: Record<string, string> = {}): Promise<RunningSandbox> {
  const config = loadConfig({
    SCENARIOS_DIR,
    DATABASE: ':memory:',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SEED: 'snapshot',
    START_TIME: START,
    PUBLIC_URL: 'http://sandbox.test',
    ...env,
  })
  const s = await startSandbox(config, { log: silentLog })
  started.push(s)
  return s
}

interface Exchange {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One call with nothing of the run in it: the same Host (a team runs its sandbox on one port),
 * no user agent or date of the client's own. The answer's Date header is the one real-time
 * value of every answer (the HTTP server's own), so it is left out.
 */
function call(
  s: RunningSandbox,
  method: string,
  path: string,
  auth?: string,
  json?: unknown,
): Promise<Exchange> {
  const body = json === undefined ? undefined : JSON.stringify(json)
  const headers: Record<string, string> = { host: 'sandbox.test' }
  if (auth) headers.authorization = auth
  if (body !== undefined)
    Object.assign(headers, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    })
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: s.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (d: Buffer) => chunks.push(d))
        res.on('end', () => {
          const { date: _date, ...rest } = res.headers
          resolve({
            status: res.statusCode!,
            headers: rest,
            body: Buffer.concat(chunks).toString('utf8'),
          })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** A session of a test suite: tenants, charges, payments, transfers, webhooks, the clock, the journal, a reset. */
async function story(s: RunningSandbox): Promise<Exchange[]> {
  const admin = `Bearer ${s.adminToken}`
  const out: Exchange[] = []
  const take = async (method: string, path: string, auth?: string, json?: unknown) => {
    const r = await call(s, method, path, auth, json)
    out.push(r)
    return r.body && r.headers['content-type']?.includes('json') ? JSON.parse(r.body) : r.body
  }
  await take('GET', '/_sandbox/health')
  const named = await take('POST', '/_sandbox/companies', admin, {})
  const tenant = await take('POST', '/_sandbox/companies', admin, {
    name: 'Snapshot Ltda',
    balance: 50_000,
  })
  const tenantAuth = `Basic ${tenant.token}`
  await take('GET', '/api/v1/user/company', tenantAuth)
  const charge = await take('POST', '/api/v1/hub/transactions/in', tenantAuth, {
    amount: 1234,
    description: 'first',
  })
  await take('POST', '/api/v1/hub/transactions/in', AUTH.main, { amount: 4242 })
  await take('POST', '/api/v1/hub/transactions/out', tenantAuth, {
    amount: 100,
    pix_key: 'a@b.com',
    pix_type: 'EMAIL',
  })
  await take('POST', '/api/v1/hub/transactions/out', AUTH.main, {
    amount: 100,
    pix_key: 'pending@pix.example',
    pix_type: 'EMAIL',
  })
  await take('POST', '/api/v1/hub/transactions/out', AUTH.main, { amount: 0 })
  await take('POST', '/_sandbox/webhooks', admin, {
    url: 'http://receiver.test/hook',
    company_id: named.company_id,
  })
  await take('POST', '/_sandbox/webhooks', tenantAuth, {
    url: 'http://receiver.test/other',
    format: 'bcb',
  })
  await take('GET', '/_sandbox/webhooks', admin)
  await take('GET', `/pix/qr/v2/${/qr\/v2\/([a-z0-9]{25})/.exec(charge.qr_code)![1]}`)
  await take('GET', '/.well-known/jwks.json')
  await take('POST', `/_sandbox/charges/${charge.transaction_id}/pay`, admin, {})
  await take('GET', `/_sandbox/charges/${charge.transaction_id}`, tenantAuth)
  await take('GET', '/_sandbox/clock', admin)
  await take('POST', '/_sandbox/clock/advance', admin, { seconds: 61 })
  await take('GET', '/_sandbox/charges', admin)
  await take('GET', '/_sandbox/transfers', admin)
  await take('GET', `/_sandbox/users/${tenant.user_id}/balance`, admin)
  await take('GET', '/_sandbox/events?limit=500', admin)
  await take('GET', '/_sandbox/requests?limit=500', admin)
  await take('GET', '/_sandbox/whoami', tenantAuth)
  await take('POST', '/_sandbox/reset', admin, {})
  await take('GET', '/_sandbox/clock', admin)
  await take('POST', '/api/v1/hub/transactions/in', AUTH.main, { amount: 500 })
  await take('POST', '/_sandbox/companies', admin, {})
  await take('GET', '/_sandbox/events', admin)
  return out
}

describe('SEED and START_TIME', () => {
  it('two fresh sandboxes answer the same calls byte for byte alike, contract and control plane', async () => {
    const first = await story(await fresh())
    const second = await story(await fresh())
    expect(first.length).toBe(second.length)
    for (let i = 0; i < first.length; i++) expect(second[i], `call ${i + 1}`).toEqual(first[i])
    // Not alike by accident: the answers hold ids, secrets, codes and virtual times.
    const text = first.map((e) => e.body).join('\n')
    expect(text).toMatch(/"client_secret":"[A-Za-z0-9]{40}"/)
    expect(text).toMatch(/"secret":"whsec_/)
    expect(text).toContain('"now":"2026-03-01T12:00:00.000250Z"')
    expect(text).toContain('sandbox.test/pix/qr/v2/')
    expect(text).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]{86}$/m) // a signed location
  })

  it('starts a fresh store frozen at START_TIME; resume lets it run from there', async () => {
    const s = await fresh()
    const admin = `Bearer ${s.adminToken}`
    const clock = JSON.parse((await call(s, 'GET', '/_sandbox/clock', admin)).body)
    expect(clock).toEqual({ now: '2026-03-01T12:00:00.000250Z', offset_seconds: 0, frozen: true })
    await new Promise((r) => setTimeout(r, 20))
    expect(JSON.parse((await call(s, 'GET', '/_sandbox/health')).body).now).toBe(
      '2026-03-01T12:00:00.000250Z',
    )
    await call(s, 'POST', '/_sandbox/clock/resume', admin)
    await new Promise((r) => setTimeout(r, 20))
    const running = JSON.parse((await call(s, 'GET', '/_sandbox/clock', admin)).body)
    expect(running.frozen).toBe(false)
    expect(Date.parse(running.now) - Date.parse('2026-03-01T12:00:00.000Z')).toBeGreaterThanOrEqual(
      15,
    )
    expect(Date.parse(running.now) - Date.parse('2026-03-01T12:00:00.000Z')).toBeLessThan(60_000)
  })

  it('takes the clock back to START_TIME at reset; a store that holds state keeps its clock, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-start-'))
    try {
      const database = join(dir, 'sandbox.db')
      const s = await fresh({ DATABASE: database })
      const admin = `Bearer ${s.adminToken}`
      await call(s, 'POST', '/_sandbox/clock/advance', admin, { seconds: 3600 })
      await call(s, 'POST', '/_sandbox/reset', admin, {})
      expect(JSON.parse((await call(s, 'GET', '/_sandbox/clock', admin)).body)).toMatchObject({
        now: '2026-03-01T12:00:00.000250Z',
        frozen: true,
      })
      await call(s, 'POST', '/_sandbox/clock/advance', admin, { seconds: 60 })
      await s.close()
      started.splice(0)
      const lines: string[] = []
      const config = loadConfig({
        SCENARIOS_DIR,
        DATABASE: database,
        PORT: '0',
        START_TIME: '2030-01-01T00:00:00Z',
        PUBLIC_URL: 'http://sandbox.test',
      })
      const again = await startSandbox(config, { log: createLog('warn', (l) => lines.push(l)) })
      started.push(again)
      expect(JSON.parse((await call(again, 'GET', '/_sandbox/health')).body).now).toBe(
        '2026-03-01T12:01:00.000250Z',
      )
      expect(lines.join('')).toContain('START_TIME ignored: the store already holds state')
    } finally {
      await Promise.all(started.splice(0).map((s) => s.close()))
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('rejects a START_TIME that is not an instant with its zone, naming the variable', () => {
    for (const bad of [
      '2026-03-01',
      '2026-03-01T12:00:00',
      'yesterday',
      '2026-02-30T12:00:00Z',
      '1969-12-31T23:59:59Z',
    ]) {
      expect(() => loadConfig({ START_TIME: bad }), bad).toThrow(
        /START_TIME: .*ISO 8601 instant with its time zone/,
      )
    }
    expect(loadConfig({ START_TIME: '2026-03-01T12:00:00.5Z' }).startTime).toBe(
      Date.UTC(2026, 2, 1, 12) * 1000 + 500_000,
    )
  })
})
