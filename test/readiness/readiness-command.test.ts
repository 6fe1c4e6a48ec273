// `pix-sandbox readiness --url URL --admin-token TOKEN`: the report of a sandbox already running,
// as a summary or as the endpoint's JSON; a gate when asked; and anything at URL that is not a
// sandbox (another server, nothing listening, a wrong token) said so, exit 1.
import { execFile } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../bench/processes.js'
import { runReadiness } from '../../src/cli/readiness.js'
import { HANG_MS } from '../hang.js'
import { AUTH, request, startTestSandbox, type TestSandbox } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLI = [process.execPath, '--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli.ts')]

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      CLI[0]!,
      [...CLI.slice(1), 'readiness', ...args],
      {
        timeout: HANG_MS,
        env: { ...process.env, SANDBOX_ADMIN_TOKEN: '', PIX_SANDBOX_ADMIN_TOKEN: '', ...env },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })
}

let sb: TestSandbox
let other: http.Server
let otherUrl: string
let closedUrl: string
let hostileUrl: string
let hostile: http.Server
// What a hostile server puts in every text field: sequences that set the window title and clear
// the screen, a C1 CSI, a right-to-left override and a line of its own.
const EVIL = '\u001b]0;PWNED-TITLE\u0007\u001b[2J\u009b31m\u202eDESREVER\nFORGED LINE\r\u2028\u007f'
const hostileReport = {
  since: '2026-01-01T00:00:00.000000Z',
  coverage: { met: 0, total: 1, percent: 0 },
  behaviours: [{ id: 'charge.created', met: false, count: 0, how: `HOW${EVIL}` }],
  findings: [
    {
      id: 'missing_accept',
      severity: 'info',
      count: 1,
      example: {
        method: `GET${EVIL}`,
        path: `/x${EVIL}`,
        time: '2026-01-01T00:00:00.000000Z',
        seen: `s${EVIL}`,
      },
      advice: `ADVICE${EVIL}`,
    },
  ],
}
beforeAll(async () => {
  sb = await startTestSandbox()
  await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
    auth: AUTH.main,
    json: { amount: 1000 },
  })
  await request(sb.url, 'GET', '/api/v1/user/company', { auth: AUTH.production })
  // Some other web server: HTML everywhere.
  other = http.createServer((_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'),
  )
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  closedUrl = `http://127.0.0.1:${await freePort()}`
  hostile = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hostileReport)),
  )
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r))
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
})
afterAll(async () => {
  other.close()
  hostile.close()
  await sb.close()
})

describe('pix-sandbox readiness', () => {
  it('prints the summary of a running sandbox, exit 0 without a gate', async () => {
    const r = await cli(['--url', sb.url, '--admin-token', sb.adminToken])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /^pix-sandbox readiness: 2 of 32 behaviours met \(6%\), 1 finding \(1 error\)\n/,
    )
    expect(r.stdout).toMatch(/error\s+production_credentials\s+x1\s+GET \/api\/v1\/user\/company/)
    expect(r.stdout).toContain('Result: exit 0')
  })

  it('--json prints what GET /_sandbox/readiness answers; --company-id one company; the base URL works too', async () => {
    const all = await cli(['--url', `${sb.url}/api/v1/`, '--json'], {
      SANDBOX_ADMIN_TOKEN: sb.adminToken,
    })
    expect(all.code).toBe(0)
    expect(JSON.parse(all.stdout)).toEqual((await sb.admin('GET', '/readiness')).body)
    const one = await cli([
      '--url',
      sb.url,
      '--admin-token',
      sb.adminToken,
      '--company-id',
      'loja-inativa',
      '--json',
    ])
    expect(JSON.parse(one.stdout).coverage).toEqual({ met: 0, total: 32, percent: 0 })
  })

  it('gates like exec when asked', async () => {
    expect(
      (await cli(['--url', sb.url, '--admin-token', sb.adminToken, '--fail-on', 'error'])).code,
    ).toBe(1)
    const under = await cli([
      '--url',
      sb.url,
      '--admin-token',
      sb.adminToken,
      '--min-coverage',
      '10',
    ])
    expect([under.code, under.stdout]).toEqual([
      1,
      expect.stringContaining('Result: exit 1: coverage 6% is under --min-coverage 10'),
    ])
  })

  it.each([
    [
      'another server',
      () => [otherUrl, 'x'.repeat(20)],
      /^pix-sandbox readiness: http:\/\/127\.0\.0\.1:\d+ is not a pix-sandbox with readiness: GET \/_sandbox\/readiness answered 404 \(text\/html\)\n$/,
    ],
    [
      'nothing listening',
      () => [closedUrl, 'x'.repeat(20)],
      /^pix-sandbox readiness: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/,
    ],
    [
      'a wrong admin token',
      () => [sb.url, 'wrong-token-0123456789'],
      /refused the admin token \(401\): pass the token the sandbox was started with/,
    ],
  ])('%s: says so, exit 1', async (_what, target, message) => {
    const [url, token] = target()
    const r = await cli(['--url', url!, '--admin-token', token!])
    expect([r.code, r.stdout]).toEqual([1, ''])
    expect(r.stderr).toMatch(message)
  })

  it("prints a hostile server's report with every control character escaped, as text and as JSON", async () => {
    const text = await cli(['--url', hostileUrl, '--admin-token', 'x'.repeat(20)])
    expect(text.code).toBe(0)
    // No escape, bell, C1, DEL, bidi or line separator; no line the server wrote.
    expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/)
    expect(text.stdout).not.toMatch(/^FORGED/m)
    expect(text.stdout).toContain(
      'HOW\\u001b]0;PWNED-TITLE\\u0007\\u001b[2J\\u009b31m\\u202eDESREVER\\u000aFORGED LINE',
    )
    expect(text.stdout).toContain('ADVICE\\u001b]0;')
    const json = await cli(['--url', hostileUrl, '--admin-token', 'x'.repeat(20), '--json'])
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/)
    expect(json.stdout).toContain('\\u009b31m\\u202eDESREVER')
    expect(JSON.parse(json.stdout)).toEqual(hostileReport)
  })

  it('waits for the calls still being processed before its verdict: a payout a delay holds, re-sent after its client gave up', async () => {
    const held = await startTestSandbox()
    try {
      await held.admin('POST', '/faults', { operation: 'transfer', delay_ms: 1500, times: 1 })
      const payout = {
        amount: 1000,
        pix_key: 'maria@example.com',
        pix_type: 'EMAIL',
        description: 'Pedido 1',
      }
      const send = (signal?: AbortSignal) =>
        fetch(`${held.url}/api/v1/hub/transactions/out`, {
          method: 'POST',
          headers: {
            authorization: AUTH.main,
            accept: 'application/json',
            'content-type': 'application/json',
          },
          body: JSON.stringify(payout),
          signal,
        })
      // The client gives up once the sandbox holds its payout (the fault taken), and sends it again.
      const gaveUp = new AbortController()
      const first = send(gaveUp.signal).catch(() => undefined)
      while ((await held.admin('GET', '/faults')).body.data.length)
        await new Promise((r) => setTimeout(r, 10))
      gaveUp.abort()
      await first
      expect((await send()).status).toBe(200)
      let out = ''
      const code = await runReadiness(
        { url: held.url, adminToken: held.adminToken, json: true, gate: { failOn: 'error' } },
        (t) => void (out += t),
        () => undefined,
      )
      const report = JSON.parse(out)
      expect(report.findings.map((f: { id: string }) => f.id)).toEqual(['paid_twice'])
      expect([code, report.in_flight]).toEqual([1, { calls: 0, wait_ms: 0 }])
    } finally {
      await held.close()
    }
  })

  it('an unknown company says so; a missing token, URL or bad flag is a usage error', async () => {
    const unknown = await cli([
      '--url',
      sb.url,
      '--admin-token',
      sb.adminToken,
      '--company-id',
      'nope',
    ])
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringContaining('has no company nope'),
    ])
    expect((await cli(['--url', sb.url])).code).toBe(2)
    expect((await cli(['--admin-token', sb.adminToken])).code).toBe(2)
    expect((await cli(['--url', 'ftp://x', '--admin-token', sb.adminToken])).code).toBe(2)
    expect(
      (await cli(['--url', sb.url, '--admin-token', sb.adminToken, '--fail-on', 'sometimes'])).code,
    ).toBe(2)
  })
})
