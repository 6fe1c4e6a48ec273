// A hostile target: HTML pages, hung requests, dropped connections and 500s that echo the
// credentials back. Every row is still reported, nothing crashes, and the secret never shows.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probe, tempDir } from './helpers.js'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'

const SECRET = 'hostile-s3cret-value'
const TOKEN = Buffer.from(`hostile-client:${SECRET}`).toString('base64')

describe('a hostile target', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      const echo = `${req.headers.authorization ?? ''} ${Buffer.from((req.headers.authorization ?? '').slice(6), 'base64').toString()}`
      if (req.url?.startsWith('/api/v1/user/company')) {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body>Login ${echo}</body></html>`)
      } else if (req.url === '/api/v1/hub/transactions/in') {
        req.socket.destroy()
      } else if (req.url === '/api/v1/hub/transactions/out') {
        // never answers
      } else {
        res
          .writeHead(500, { 'content-type': 'application/json', 'x-echo': echo })
          .end(JSON.stringify({ detail: echo }))
      }
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  })
  afterAll(() => {
    server.closeAllConnections()
    server.close()
  })

  it('gets a row for every check saying what went wrong, and never shows the secret', async () => {
    const json = join(tempDir(), 'hostile.json')
    const scenario = join(tempDir(), 'hostile.yaml')
    const run = await probe(base, {
      clientId: 'hostile-client',
      clientSecret: SECRET,
      createCharges: 2,
      transfers: true,
      timeoutMs: 300,
      json,
      writeScenario: scenario,
    })
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    const rows: { id: string; verdict: string; target: { unobservable?: string } }[] = run.json.rows
    expect(rows.length).toBeGreaterThan(30)
    expect(rows.every((r) => r.verdict === 'not observable')).toBe(true)
    const reason = (id: string) => rows.find((r) => r.id === id)!.target.unobservable
    expect(reason('company.body')).toBe('answered an HTML page (status 200)')
    expect(reason('validation.amount-zero')).toBe('failed: connection closed without an answer')
    expect(reason('validation.key-cpf')).toBe('timed out: no answer within 300 ms')
    expect(reason('framework.not-found')).toMatch(/^answered 500: /)
    for (const text of [run.out, run.jsonText, readFileSync(scenario, 'utf8')]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(TOKEN)
    }
    // The HTML page echoed the credentials: kept in the raw exchanges, with the secret cut out.
    const echoed = run.json.exchanges.target.findLast((e: { reply?: { text: string } }) =>
      e.reply?.text.includes('hostile-client:'),
    )
    expect(echoed.reply.text).toContain('Login Basic [redacted] hostile-client:[redacted]')
  })
})

// Issue 27, defect 7: a target's text reached the operator's terminal raw (title rewritten,
// screen cleared). Every control character it sends is shown escaped, in the report, the JSON
// report and the written scenario alike, and no text of its own can start a line of the report.
describe('a target whose answers hold terminal controls', () => {
  // OSC title, BEL, clear screen, a C1 CSI, DEL, a right-to-left override, and a line of its own.
  const HOSTILE = '\u001b]0;TITLE\u0007\u001b[2J\u009b31mred\u007f\u202eevil\r\nFORGED agree (same)'
  const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/
  it('shows them escaped everywhere it prints or writes them, and keeps the data exact in the JSON report', async () => {
    const server = createServer((req, res) => {
      req.resume()
      const status = req.url?.startsWith('/api/v1/user/company') ? 500 : 404
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: HOSTILE }))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const scenario = join(tempDir(), 'calibrated.yaml')
      const run = await probe(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, {
        writeScenario: scenario,
      })
      expect(run.err).toBe('')
      expect(run.code).toBe(0)
      const written = readFileSync(scenario, 'utf8')
      for (const text of [run.out, run.jsonText, written]) {
        expect(UNSAFE.exec(text)?.[0]).toBeUndefined()
        expect(text).not.toMatch(/\nFORGED/)
      }
      expect(run.out).toContain(
        '\\u001b]0;TITLE\\u0007\\u001b[2J\\u009b31mred\\u007f\\u202eevil\\u000d\\u000aFORGED',
      )
      expect(written).toContain('\\u001b]0;TITLE')
      const replies = run.json.exchanges.target.map(
        (e: { reply?: { text: string } }) => e.reply?.text,
      )
      expect(replies).toContain(JSON.stringify({ detail: HOSTILE }))
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

describe('a target that answers 200 with bodies of the wrong shape', () => {
  it('reports them as differences without tripping over them', async () => {
    const bodies = [
      'null',
      '[]',
      '{"qr_code": 5, "transaction_id": {"a": 1}, "expiration_date": true}',
      '"text"',
      '{"detail": {"nested": []}}',
    ]
    let n = 0
    const server = createServer((req, res) => {
      req.resume()
      res
        .writeHead(200, { 'content-type': 'application/json', date: 'not a date' })
        .end(bodies[n++ % bodies.length])
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const run = await probe(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, {
        clientId: 'odd',
        clientSecret: 'odd-secret-value',
        createCharges: 2,
        transfers: true,
      })
      expect(run.err).toBe('')
      expect(run.code).toBe(0)
      const rows: { id: string; verdict: string }[] = run.json.rows
      // Only where the sandbox also answers a bare 200 (valid credentials, scheme in lower case).
      expect(rows.filter((r) => r.verdict === 'agree').map((r) => r.id)).toEqual([
        'auth.lowercase-scheme',
      ])
      expect(rows.find((r) => r.id === 'framework.not-found')!.verdict).toBe('differ')
      expect(run.out).toContain('checks:')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
