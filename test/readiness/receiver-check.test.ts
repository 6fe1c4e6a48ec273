// The receiver check (docs/READINESS.md#the-receiver-check), through POST /_sandbox/webhooks/{id}/check and `pix-sandbox
// check-receiver`: a correct receiver passes every check, a careless one fails bad_signature and
// stale_timestamp (and they become findings); it sends only to the subscription's own URL,
// respects WEBHOOK_ALLOWED_HOSTS, never follows a redirect, and a closed port, a TLS error or a
// receiver that never answers fails each check with its reason, within its time limits.
import { execFile, execFileSync } from 'node:child_process'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../bench/processes.js'
import { subscribe } from '../../src/operations/webhooks.js'
import { checkReceiver } from '../../src/webhooks/check.js'
import { HANG_MS } from '../hang.js'
import { request, startTestSandbox, type TestSandbox } from '../harness.js'
import { startSilentReceiver } from '../webhooks/receiver.js'
import { startHookReceiver, type Behaviour, type HookReceiver } from './receivers.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

interface Tenant {
  company_id: string
  token: string
}
const tenant = async (): Promise<Tenant> =>
  (await sb.admin('POST', '/companies', { name: 'Receiver Ltda' })).body
const as = (t: Tenant) => `Basic ${t.token}`
const subscribeAs = async (t: Tenant, url: string, format = 'standard') =>
  (await request(sb.url, 'POST', '/_sandbox/webhooks', { auth: as(t), json: { url, format } })).body
const check = (t: Tenant, id: string) =>
  request(sb.url, 'POST', `/_sandbox/webhooks/${id}/check`, { auth: as(t) })
const summary = (body: any) => body.checks.map((c: any) => `${c.id}:${c.status}:${c.passed}`)

async function checked(behaviour: Behaviour) {
  const t = await tenant()
  const rx = await startHookReceiver(behaviour)
  const hook = await subscribeAs(t, rx.url)
  rx.secret = hook.secret
  const r = await check(t, hook.id)
  await rx.close()
  return {
    t,
    rx,
    r,
    report: (await request(sb.url, 'GET', '/_sandbox/readiness', { auth: as(t) })).body,
  }
}

describe('POST /_sandbox/webhooks/{id}/check', () => {
  it('a correct receiver passes every check; its test messages say so; no finding', async () => {
    const { r, rx, report } = await checked('correct')
    expect(r.status).toBe(200)
    expect(r.body.passed).toBe(true)
    expect(summary(r.body)).toEqual([
      'valid:204:true',
      'duplicate:200:true',
      'bad_signature:400:true',
      'stale_timestamp:400:true',
      'unknown_type:204:true',
    ])
    expect(
      r.body.checks.every((c: any) => c.advice === null && c.error === null && c.ms < 5000),
    ).toBe(true)
    expect(rx.received).toHaveLength(5)
    expect(new Set(rx.received.map((x) => x.id)).size).toBe(4)
    expect(report.findings).toEqual([])
    expect(report.behaviours.find((b: any) => b.id === 'webhook.bad_signature_rejected').met).toBe(
      true,
    )
  })

  it('a careless receiver fails bad_signature and stale_timestamp, with advice; both become findings', async () => {
    const { r, report } = await checked('careless')
    expect(r.body.passed).toBe(false)
    expect(summary(r.body)).toEqual([
      'valid:200:true',
      'duplicate:200:true',
      'bad_signature:200:false',
      'stale_timestamp:200:false',
      'unknown_type:200:true',
    ])
    const bad = r.body.checks.find((c: any) => c.id === 'bad_signature')
    expect(bad).toMatchObject({
      expected: '4xx',
      error: null,
      advice: expect.stringContaining('Verify webhook-signature'),
    })
    expect(report.findings.map((f: any) => f.id)).toEqual([
      'receiver_accepts_bad_signature',
      'receiver_accepts_stale_timestamp',
    ])
    expect(report.findings[1].example).toMatchObject({
      method: 'POST',
      seen: 'the receiver check: the receiver answered 200 to a delivery signed 10 minutes ago',
    })
    expect(report.behaviours.find((b: any) => b.id === 'webhook.bad_signature_rejected').met).toBe(
      false,
    )
  })

  it('a receiver that refuses a webhook-id it took fails duplicate: a finding', async () => {
    const { r, report } = await checked('rejects-duplicates')
    expect(summary(r.body)).toContain('duplicate:409:false')
    expect(report.findings.map((f: any) => f.id)).toEqual(['receiver_rejects_duplicate'])
  })

  it("checks only the caller's subscriptions, standard ones only", async () => {
    const [a, b] = [await tenant(), await tenant()]
    const theirs = await subscribeAs(b, 'http://127.0.0.1:9/hooks')
    const refused = await check(a, theirs.id)
    expect([refused.status, refused.body]).toEqual([404, { detail: 'Webhook not found' }])
    expect((await check(a, 'wh_nope')).status).toBe(404)
    const bcb = await subscribeAs(a, 'http://127.0.0.1:9/hooks', 'bcb')
    const r = await check(a, bcb.id)
    expect([r.status, r.body.detail]).toEqual([
      422,
      'format: the receiver check is for standard subscriptions; bcb deliveries are authenticated by mutual TLS, not signatures',
    ])
  })

  it('a closed port fails each check with its reason, and is no finding about the receiver', async () => {
    const t = await tenant()
    const hook = await subscribeAs(t, `http://127.0.0.1:${await freePort()}/hooks`)
    const r = await check(t, hook.id)
    expect(r.body.passed).toBe(false)
    expect(r.body.checks.map((c: any) => c.error)).toEqual(
      Array(5).fill('could not connect (ECONNREFUSED)'),
    )
    expect(r.body.checks[0].advice).toMatch(/^Start the receiver/)
    expect(
      (await request(sb.url, 'GET', '/_sandbox/readiness', { auth: as(t) })).body.findings,
    ).toEqual([])
  })

  it('never follows a redirect', async () => {
    const target = await startHookReceiver('careless')
    const redirect = http.createServer((req, res) => {
      req.resume()
      res.writeHead(307, { location: target.url }).end()
    })
    await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', r))
    try {
      const t = await tenant()
      const hook = await subscribeAs(
        t,
        `http://127.0.0.1:${(redirect.address() as AddressInfo).port}/hooks`,
      )
      const r = await check(t, hook.id)
      expect(r.body.checks.map((c: any) => [c.status, c.passed])).toEqual(
        Array(5).fill([307, false]),
      )
      expect(r.body.checks[0].error).toBe(`answered 307, a redirect to ${target.url}: not followed`)
      expect(target.received).toEqual([])
    } finally {
      redirect.close()
      await target.close()
    }
  })

  it('respects WEBHOOK_ALLOWED_HOSTS: nothing is sent to a host it does not allow', async () => {
    const rx = await startHookReceiver('correct')
    const guarded = await startTestSandbox({ webhookAllowedHosts: ['hooks.example'] })
    try {
      // Subscribed before the list said otherwise (a restart with a narrower list).
      const sub = subscribe(guarded.sandbox, { url: rx.url, companyId: null })
      const r = await guarded.admin('POST', `/webhooks/${sub.id}/check`)
      expect(r.body.checks.map((c: any) => c.error)).toEqual(
        Array(5).fill(`not sent: host ${new URL(rx.url).host} is not in WEBHOOK_ALLOWED_HOSTS`),
      )
      expect(rx.received).toEqual([])
    } finally {
      await guarded.close()
      await rx.close()
    }
  })

  it("takes the subscription's send slots: concurrent checks never have more than 5 sends in flight", async () => {
    let inFlight = 0
    let most = 0
    const slow = http.createServer((req, res) => {
      inFlight++
      most = Math.max(most, inFlight)
      req.resume().on('end', () => setTimeout(() => (inFlight--, res.writeHead(200).end()), 100))
    })
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r))
    try {
      const t = await tenant()
      const hook = await subscribeAs(
        t,
        `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`,
      )
      const answers = await Promise.all(Array.from({ length: 12 }, () => check(t, hook.id)))
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200))
      // Each check's own timing starts when its send does, not while it waits for a slot.
      expect(
        answers
          .flatMap((a) => a.body.checks.map((c: any) => c.ms))
          .every((ms: number) => ms < 1000),
      ).toBe(true)
      // 48 at once before checks took slots (four sends of each check beside each other).
      expect(most).toBe(5)
    } finally {
      slow.closeAllConnections()
      slow.close()
    }
  })

  it('a receiver that never answers fails each check within its 5 s limit, and is slow', async () => {
    const silent = await startSilentReceiver()
    try {
      const t = await tenant()
      const hook = await subscribeAs(t, `${silent.url}/hooks`)
      const started = Date.now()
      const r = await check(t, hook.id)
      // valid, then duplicate; the other three beside them: two limits, not five.
      expect(Date.now() - started).toBeLessThan(11_500)
      expect(r.body.checks.map((c: any) => c.error)).toEqual(Array(5).fill('no answer within 5 s'))
      const report = (await request(sb.url, 'GET', '/_sandbox/readiness', { auth: as(t) })).body
      expect(report.findings.map((f: any) => f.id)).toEqual(['receiver_slow'])
    } finally {
      await silent.close()
    }
  })
})

describe('checkReceiver', () => {
  it('a TLS error is said as one', async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-tls-'))
    try {
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-keyout',
            join(dir, 'k'),
            '-out',
            join(dir, 'c'),
            '-days',
            '2',
            '-subj',
            '/CN=localhost',
          ],
          { stdio: 'ignore' },
        )
      } catch {
        return ctx.skip()
      }
      const server = https.createServer(
        { key: readFileSync(join(dir, 'k')), cert: readFileSync(join(dir, 'c')) },
        (_req, res) => res.writeHead(204).end(),
      )
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      try {
        const r = await checkReceiver({
          url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
          secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          userAgent: 'test',
        })
        expect(r.checks.map((c) => c.error)).toEqual(
          Array(5).fill('TLS error (DEPTH_ZERO_SELF_SIGNED_CERT)'),
        )
      } finally {
        server.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('pix-sandbox check-receiver', () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url))
  const cli = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [
          '--import',
          import.meta.resolve('tsx'),
          join(ROOT, 'src/cli.ts'),
          'check-receiver',
          ...args,
        ],
        { timeout: HANG_MS },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
      )
    })
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  let correct: HookReceiver
  let careless: HookReceiver
  beforeAll(async () => {
    ;[correct, careless] = [await startHookReceiver('correct'), await startHookReceiver('careless')]
    correct.secret = careless.secret = SECRET
  })
  afterAll(async () => {
    await correct.close()
    await careless.close()
  })

  it('passes a correct receiver (exit 0) and fails a careless one (exit 1), with a table', async () => {
    const ok = await cli([correct.url, '--secret', SECRET])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(
      /^pix-sandbox check-receiver: http:\/\/127\.0\.0\.1:\d+\/hooks: 5 of 5 checks passed\n/,
    )
    const bad = await cli([careless.url, '--secret', SECRET, '--json'])
    expect(bad.code).toBe(1)
    expect(
      JSON.parse(bad.stdout)
        .checks.filter((c: any) => !c.passed)
        .map((c: any) => c.id),
    ).toEqual(['bad_signature', 'stale_timestamp'])
    const text = await cli([careless.url, '--secret', SECRET])
    expect(text.stdout).toMatch(
      /bad_signature\s+4xx\s+200\s+\d+\s+FAILED\n\s+Verify webhook-signature/,
    )
  })

  it("shows a hostile receiver's redirect with its control characters escaped, as a table and as JSON", async () => {
    // A Location holding a C1 CSI and the UTF-8 bytes of a right-to-left override, which fetch
    // reads as Latin-1 (C1 characters); raw ESC would not pass fetch's parser.
    const location = Buffer.concat([
      Buffer.from('/x'),
      Buffer.from([0x9b, 0x33, 0x31, 0x6d, 0xe2, 0x80, 0xae]),
      Buffer.from('y'),
    ])
    const server = net.createServer((socket) =>
      socket.once('data', () =>
        socket.end(
          Buffer.concat([
            Buffer.from('HTTP/1.1 302 Found\r\nLocation: '),
            location,
            Buffer.from('\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
          ]),
        ),
      ),
    )
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
      const table = await cli([url, '--secret', SECRET])
      const json = await cli([url, '--secret', SECRET, '--json'])
      for (const r of [table, json]) {
        expect(r.code).toBe(1)
        expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
        expect(r.stdout).toContain('a redirect to /x\\u009b31m')
      }
      expect(JSON.parse(json.stdout).checks[0].error).toBe(
        'answered 302, a redirect to /x\u009b31m\u00e2\u0080\u00aey: not followed',
      )
    } finally {
      server.close()
    }
  })

  it.each([
    [['http://127.0.0.1:1/hooks'], /needs --secret whsec_/],
    [['http://127.0.0.1:1/hooks', '--secret', 'not-a-secret'], /--secret must be whsec_/],
    [
      ['not a url', '--secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      /URL must be an http\(s\) URL/,
    ],
    [[], /missing required argument 'url'/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const r = await cli(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
  })
})
