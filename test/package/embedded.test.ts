// `import { startSandbox } from 'pix-sandbox'`: one sandbox in the test's process, its typed
// control client, per-test tenants, reset(), and a close() that leaves nothing running.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'
import { connectSandbox, SandboxRequestError, startSandbox, type Sandbox } from '../../src/index.js'

const json = (authorization: string, body: unknown) => ({
  method: 'POST',
  headers: { authorization, 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

async function post(url: string, authorization: string, body: unknown): Promise<any> {
  const res = await fetch(url, json(authorization, body))
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

describe('startSandbox()', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox()
  })
  afterAll(() => sb.close())

  it('listens on a free local port with the default scenario and its named credentials', async () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sb.baseUrl).toBe(`${sb.url}/api/v1`)
    expect((await sb.control.health()).scenario).toBe('default')
    const company = await fetch(`${sb.baseUrl}/user/company`, {
      headers: { authorization: sb.credentials.main.authorization },
    })
    expect(company.status).toBe(200)
    const inactive = await fetch(
      `${sb.baseUrl}/hub/transactions/in`,
      json(sb.credentials.inactive.authorization, { amount: 100 }),
    )
    expect(inactive.status).toBe(403)
    expect(sb.credentials.main).toMatchObject({
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
    })
  })

  it('drives charges, transfers, the clock, outcomes, faults and the journal through the control client', async () => {
    const auth = sb.credentials.main.authorization
    const created = await sb.control.requests.count({
      path: '/api/v1/hub/transactions/in',
      status: 200,
    })
    const charge = await post(`${sb.baseUrl}/hub/transactions/in`, auth, { amount: 1000 })
    expect((await sb.control.charges.pay(charge.transaction_id)).status).toBe('paid')
    const other = await post(`${sb.baseUrl}/hub/transactions/in`, auth, { amount: 1000 })
    expect((await sb.control.charges.expire(other.transaction_id)).status).toBe('cancelled')
    await expect(sb.control.charges.pay(other.transaction_id)).rejects.toBeInstanceOf(
      SandboxRequestError,
    )
    await expect(sb.control.charges.pay(other.transaction_id)).rejects.toMatchObject({
      status: 409,
    })

    await sb.control.outcomes.next({ status: 'pending' })
    const transfer = await post(`${sb.baseUrl}/hub/transactions/out`, auth, {
      amount: 100,
      pix_key: 'maria@example.com',
      pix_type: 'EMAIL',
    })
    expect(transfer.status).toBe('pending')
    expect(
      (await sb.control.transfers.settle(transfer.transaction_id, 'failed', 'Recusada')).status,
    ).toBe('failed')

    const before = Date.parse((await sb.control.health()).now)
    const advanced = await sb.control.clock.advance(3600)
    expect(Date.parse(advanced.now) - before).toBeGreaterThanOrEqual(3600_000)

    await sb.control.faults.add({ operation: 'company', status: 503, times: 1 })
    expect(
      (await fetch(`${sb.baseUrl}/user/company`, { headers: { authorization: auth } })).status,
    ).toBe(503)
    expect(
      await sb.control.requests.count({ path: '/api/v1/hub/transactions/in', status: 200 }),
    ).toBe(created + 2)
    expect(await sb.control.requests.count({ path: '/api/v1/user/company', status: 503 })).toBe(1)
  })

  it('tenant(): a fresh company with its own credentials, balance and a control client scoped to it', async () => {
    const a = await sb.tenant({ balance: 5000 })
    const b = await sb.tenant()
    expect(a.companyId).not.toBe(b.companyId)
    expect(a.baseUrl).toBe(sb.baseUrl)
    const charge = await post(`${a.baseUrl}/hub/transactions/in`, a.authorization, { amount: 700 })
    expect((await a.control.charges.get(charge.transaction_id)).company_id).toBe(a.companyId)
    await expect(b.control.charges.get(charge.transaction_id)).rejects.toMatchObject({
      status: 404,
    })
    // The admin-only helpers are not on a tenant's control (its type says so); called anyway, 403.
    // @ts-expect-error reset needs the admin token
    await expect(b.control.reset()).rejects.toMatchObject({ status: 403 })
    // @ts-expect-error the clock is every company's: admin token only
    await expect(b.control.clock.advance(60)).rejects.toMatchObject({ status: 403 })
    const transfer = await post(`${a.baseUrl}/hub/transactions/out`, a.authorization, {
      amount: 6000,
      pix_key: 'maria@example.com',
      pix_type: 'EMAIL',
    }).catch(() => null)
    expect(transfer).toBeNull() // 5000 cents cannot pay 6000
    expect(await a.control.requests.count()).toBeGreaterThan(0)
  })

  it('connectSandbox() gives the same control client from a URL and the admin token', async () => {
    const remote = connectSandbox(sb.url, sb.adminToken)
    expect((await remote.health()).status).toBe('ok')
    await expect(connectSandbox(sb.url, 'wrong-token-0123456789').reset()).rejects.toMatchObject({
      status: 401,
    })
  })

  it('waits for a webhook delivery of an event for a transaction', async () => {
    const received: unknown[] = []
    const receiver: Server = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        received.push(JSON.parse(body))
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    try {
      const port = (receiver.address() as AddressInfo).port
      const sub = await sb.control.api.POST('/webhooks', {
        body: { url: `http://127.0.0.1:${port}/hook`, events: ['charge.paid'] },
      })
      expect(sub.response.status).toBe(201)
      const charge = await post(
        `${sb.baseUrl}/hub/transactions/in`,
        sb.credentials.main.authorization,
        { amount: 1999 },
      )
      await sb.control.charges.pay(charge.transaction_id)
      const delivery = await sb.control.webhooks.waitForDelivery({
        event: 'charge.paid',
        transaction_id: charge.transaction_id,
        status: 'delivered',
      })
      expect(delivery.status).toBe('delivered')
      expect(received).toContainEqual(
        expect.objectContaining({
          type: 'charge.paid',
          data: expect.objectContaining({ transaction_id: charge.transaction_id }),
        }),
      )
      await expect(
        sb.control.webhooks.waitForDelivery({ event: 'charge.cancelled', timeoutMs: 50 }),
      ).rejects.toThrow(/no delivered delivery of charge\.cancelled/)
    } finally {
      receiver.close()
    }
  })
})

describe('startSandbox(options)', () => {
  it('settings apply at start and again after reset(); reset() returns to a fresh start', async () => {
    const sb = await startSandbox({ settings: { charge_ttl_seconds: 60 }, scenario: 'default' })
    try {
      const ttl = async () => {
        const c = await post(
          `${sb.baseUrl}/hub/transactions/in`,
          sb.credentials.main.authorization,
          { amount: 100 },
        )
        const r = await sb.control.charges.get(c.transaction_id)
        return (Date.parse(r.expiration) - Date.parse(r.created_at)) / 1000
      }
      expect(await ttl()).toBeLessThanOrEqual(61)
      const tenant = await sb.tenant()
      await sb.reset()
      expect(await sb.control.requests.count({ path: '/api/v1/hub/transactions/in' })).toBe(0)
      expect(
        (
          await fetch(`${sb.baseUrl}/user/company`, {
            headers: { authorization: tenant.authorization },
          })
        ).status,
      ).toBe(401)
      expect(await ttl()).toBeLessThanOrEqual(61)
    } finally {
      await sb.close()
    }
  })

  it('a seed makes generated ids repeat; a public URL goes into the BR Code; another scenario loads', async () => {
    const first = async () => {
      const sb = await startSandbox({
        seed: 'same',
        publicUrl: 'https://sandbox.example',
        scenario: 'many-users',
      })
      try {
        expect((await sb.control.health()).scenario).toBe('many-users')
        const t = await sb.tenant({ name: 'Acme' })
        const c = await post(`${sb.baseUrl}/hub/transactions/in`, t.authorization, { amount: 100 })
        expect(c.qr_code).toContain('sandbox.example/pix/qr/v2/')
        return t.companyId
      } finally {
        await sb.close()
      }
    }
    expect(await first()).toBe(await first())
  })

  it('startTime freezes the clock there; maxCompanies bounds the tenants', async () => {
    const sb = await startSandbox({ startTime: '2026-03-01T09:00:00-03:00', maxCompanies: 3 })
    try {
      expect((await sb.control.health()).now).toBe('2026-03-01T12:00:00.000000Z')
      await sb.tenant()
      await expect(sb.tenant()).rejects.toThrow(/422 .*at most 3 companies \(MAX_COMPANIES\)/)
    } finally {
      await sb.close()
    }
  })

  it('answers only to its own names unless allowedHosts adds some (DNS rebinding)', async () => {
    const get = (url: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(url)
        httpRequest(
          { host: u.hostname, port: u.port, path: '/_sandbox/health', headers: { host } },
          (res) => resolve(res.resume().statusCode!),
        )
          .on('error', reject)
          .end()
      })
    const sb = await startSandbox({ allowedHosts: ['app.test'] })
    try {
      expect(await get(sb.url, new URL(sb.url).host)).toBe(200)
      expect(await get(sb.url, 'app.test:3000')).toBe(200)
      expect(await get(sb.url, 'rebind.example')).toBe(421)
    } finally {
      await sb.close()
    }
    await expect(startSandbox({ allowedHosts: ['http://app.test'] })).rejects.toThrow(
      /ALLOWED_HOSTS: "http:\/\/app.test" is not a host name/,
    )
  })

  it('bad options are refused with the configuration message', async () => {
    await expect(startSandbox({ startTime: 'now' })).rejects.toThrow(
      /START_TIME: "now" is not an ISO 8601 instant/,
    )
    await expect(startSandbox({ publicUrl: 'ftp://x' })).rejects.toThrow(
      /PUBLIC_URL: must be an http\(s\) URL/,
    )
    await expect(startSandbox({ settings: { charge_ttl_seconds: -5 } })).rejects.toThrow(
      /settings: settings\.charge_ttl_seconds/,
    )
    await expect(startSandbox({ scenario: 'nope' })).rejects.toThrow(/no scenario named "nope"/)
  })

  it('writes a store only where asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-embedded-'))
    try {
      const sb = await startSandbox({ database: join(dir, 'store.db') })
      await sb.close()
      expect(existsSync(join(dir, 'store.db'))).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a script that uses an embedded sandbox', () => {
  const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url))

  /** Runs `source` as script.mts in a folder of its own; no timer, socket or worker may hold it. */
  async function runScript(source: string, check: (dir: string) => void): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'pix-embedded-'))
    try {
      writeFileSync(
        join(dir, 'script.mts'),
        `import { startSandbox } from ${JSON.stringify(entry)}\n${source}`,
      )
      const tsx = import.meta.resolve('tsx')
      // It must end on its own: a handle that holds it holds it past any bound (test/hang.ts).
      const result = await new Promise<{
        code: number | null
        stdout: string
        stderr: string
        killed: boolean
      }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', tsx, 'script.mts'],
          { cwd: dir, timeout: HANG_MS },
          (err, stdout, stderr) =>
            resolve({
              code: child.exitCode,
              stdout,
              stderr,
              killed: Boolean(err && (err as { killed?: boolean }).killed),
            }),
        )
      })
      expect(result.killed, 'the script had to be killed').toBe(false)
      expect(result.stderr).toBe('')
      // 13: the script ended with an await unsettled (close() waiting on what no longer runs).
      expect(result.code).toBe(0)
      expect(result.stdout).toBe('')
      check(dir)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('prints nothing, writes nothing, and exits by itself after close()', async () => {
    await runScript(
      `const sb = await startSandbox()
const res = await fetch(sb.baseUrl + '/hub/transactions/in', { method: 'POST', headers: { authorization: sb.credentials.main.authorization, 'content-type': 'application/json' }, body: '{"amount":4242}' })
const charge = await res.json()
await sb.control.clock.advance(10) // 4242 is paid automatically 5 s later: the ticker and webhooks run
await sb.tenant()
await sb.reset()
await sb.close()
`,
      (dir) => expect(readdirSync(dir)).toEqual(['script.mts']),
    )
  })

  // A file store has a checkpointer thread: close() waits for it, and it must not hold the script.
  it('on a file store, leaves one file (and its empty lock) after close() and exits by itself', async () => {
    await runScript(
      `const sb = await startSandbox({ database: 'store.db' })
await fetch(sb.baseUrl + '/hub/transactions/in', { method: 'POST', headers: { authorization: sb.credentials.main.authorization, 'content-type': 'application/json' }, body: '{"amount":10}' })
await sb.close()
`,
      (dir) => expect(readdirSync(dir).sort()).toEqual(['script.mts', 'store.db', 'store.db.lock']),
    )
  })
})
