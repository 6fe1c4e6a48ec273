// Everything else, as the real server's framework does it (docs/CONTRACT.md#the-framework).
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLog } from '../../src/log.js'
import { startSandbox } from '../../src/server.js'
import {
  AUTH,
  request,
  storeSnapshot,
  startTestSandbox,
  testConfig,
  type TestSandbox,
} from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

describe('routing', () => {
  it.each(['/api/v1/nothing', '/api/v1/hub/transactions', '/', '/api/v2/user/company'])(
    '404 Not Found for %s',
    async (path) => {
      const res = await sb.request('GET', path, { auth: AUTH.main })
      expect(res).toMatchObject({ status: 404, body: { detail: 'Not Found' } })
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    },
  )

  it.each([
    ['GET', '/api/v1/hub/transactions/in', 'POST'],
    ['PUT', '/api/v1/hub/transactions/out', 'POST'],
    ['DELETE', '/api/v1/user/company', 'GET'],
    ['POST', '/api/v1/oauth/user/company', 'GET'],
    ['HEAD', '/api/v1/user/company', 'GET'],
  ])('405 with Allow for %s %s, before authentication', async (method, path, allow) => {
    const res = await sb.request(method, path)
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe(allow)
    if (method !== 'HEAD') expect(res.body).toEqual({ detail: 'Method Not Allowed' })
  })

  it('307 to the path without its trailing slash, with an empty body, keeping the query', async () => {
    const res = await sb.request('POST', '/api/v1/hub/transactions/in/?x=1')
    expect(res.status).toBe(307)
    expect(res.text).toBe('')
    expect(
      new URL(res.headers.get('location')!).pathname + new URL(res.headers.get('location')!).search,
    ).toBe('/api/v1/hub/transactions/in?x=1')
  })

  it('a redirected POST keeps working when the client follows it', async () => {
    const res = await fetch(sb.url + '/api/v1/hub/transactions/in/', {
      method: 'POST',
      headers: { authorization: AUTH.main, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 100 }),
    })
    expect(res.status).toBe(200)
  })
})

/** Sends `head`, waits, then sends `tail` on one raw connection; the answer's status and body. */
async function inTwoParts(
  head: string,
  tail: string,
  waitMs: number,
): Promise<{ status: number; body: unknown }> {
  const { port } = new URL(sb.url)
  const socket = net.connect(Number(port), '127.0.0.1')
  await new Promise((r) => socket.once('connect', r))
  let raw = ''
  socket.on('data', (d) => (raw += d))
  socket.write(head)
  await new Promise((r) => setTimeout(r, waitMs))
  socket.write(tail)
  await new Promise<void>((resolve) => {
    const check = () => (/\r\n\r\n[\s\S]*\}$/.test(raw) ? resolve() : setTimeout(check, 5))
    check()
  })
  socket.destroy()
  return {
    status: Number(raw.split(' ')[1]),
    body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
  }
}

describe('request bodies, however they arrive', () => {
  const body = JSON.stringify({ amount: 1234, description: 'sent late' })
  const head = (extra: string) =>
    `POST /api/v1/hub/transactions/in HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.main}\r\nContent-Type: application/json\r\n${extra}\r\n`

  it('a body that arrives after its headers is read whole', async () => {
    const res = await inTwoParts(
      head(`Content-Length: ${body.length}\r\nConnection: close\r\n`),
      body,
      50,
    )
    expect(res).toMatchObject({ status: 200, body: { status: 'pending' } })
    const id = (res.body as { transaction_id: string }).transaction_id
    expect(sb.sandbox.store.charges.byId(id)).toMatchObject({
      amount: 1234,
      description: 'sent late',
    })
  })

  it('a body cut in two packets is read whole', async () => {
    const res = await inTwoParts(
      head(`Content-Length: ${body.length}\r\nConnection: close\r\n`) + body.slice(0, 10),
      body.slice(10),
      50,
    )
    expect(res).toMatchObject({ status: 200, body: { status: 'pending' } })
    expect(
      sb.sandbox.store.charges.byId((res.body as { transaction_id: string }).transaction_id)
        ?.description,
    ).toBe('sent late')
  })

  it('a chunked body under the limit is read whole', async () => {
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
    const res = await inTwoParts(
      head('Transfer-Encoding: chunked\r\nConnection: close\r\n'),
      chunked,
      20,
    )
    expect(res).toMatchObject({ status: 200, body: { status: 'pending' } })
    expect(
      sb.sandbox.store.charges.byId((res.body as { transaction_id: string }).transaction_id)
        ?.amount,
    ).toBe(1234)
  })

  it('the journal keeps the body as read, a leading BOM dropped as the parser drops it', async () => {
    const res = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      body: '\ufeff{"amount": 4321}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res).toMatchObject({ status: 200, body: { status: 'pending' } })
    const journal = await sb.request('GET', '/_sandbox/requests?limit=1', {
      auth: `Bearer ${sb.adminToken}`,
    })
    expect(journal.body.data[0]).toMatchObject({
      method: 'POST',
      status: 200,
      request: { body: { amount: 4321 } },
    })
  })
})

// The control plane reads bodies the same way (sandbox/input.ts), and the journal keeps them.
describe('control-plane bodies, however they arrive', () => {
  const body = (name: string) => JSON.stringify({ name, balance: 1500 })
  const head = (extra: string) =>
    `POST /_sandbox/companies HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${sb.adminToken}\r\nContent-Type: application/json\r\n${extra}\r\n`
  const sized = (text: string) => head(`Content-Length: ${text.length}\r\nConnection: close\r\n`)
  const arrivals: [string, (text: string) => [string, string]][] = [
    ['with its headers', (text) => [sized(text) + text, '']],
    ['after its headers', (text) => [sized(text), text]],
    ['cut in two packets', (text) => [sized(text) + text.slice(0, 7), text.slice(7)]],
    [
      'chunked',
      (text) => [
        head('Transfer-Encoding: chunked\r\nConnection: close\r\n'),
        `${text.length.toString(16)}\r\n${text}\r\n0\r\n\r\n`,
      ],
    ],
  ]

  it.each(arrivals)('a body %s is read whole and journaled', async (how, split) => {
    const name = `Arrived ${how}`
    const res = await inTwoParts(...split(body(name)), 30)
    expect(res.status).toBe(201)
    const companyId = (res.body as { company_id: string }).company_id
    expect(sb.sandbox.store.identity.company(companyId)?.name).toBe(name)
    const journal = await sb.request('GET', '/_sandbox/requests?path=/_sandbox/companies&limit=1', {
      auth: `Bearer ${sb.adminToken}`,
    })
    expect(journal.body.data[0]).toMatchObject({
      method: 'POST',
      status: 201,
      request: { body: { name, balance: 1500 } },
    })
  })
})

describe('limits and failures', () => {
  it('413 for a body over 1 MiB, before authentication, writing nothing', async () => {
    const before = storeSnapshot(sb)
    const big = JSON.stringify({ amount: 100, description: 'x'.repeat(2 * 1024 * 1024) })
    for (const auth of [undefined, AUTH.main]) {
      const res = await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth,
        body: big,
        headers: { 'content-type': 'application/json' },
      })
      expect(res).toMatchObject({ status: 413, body: { detail: 'Request body too large' } })
    }
    expect(storeSnapshot(sb)).toEqual(before)
  })

  it('413 also for a chunked body without Content-Length', async () => {
    // node:http, because fetch gives up when the server answers before the upload ends.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(sb.url + '/api/v1/hub/transactions/in', {
        method: 'POST',
        headers: {
          authorization: AUTH.main,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      })
      req.on('response', (res) => resolve(res.statusCode!))
      req.on('error', reject)
      const chunk = 'x'.repeat(64 * 1024)
      let sent = 0
      const pump = () => {
        while (sent < 40) {
          sent++
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
        req.end()
      }
      pump()
    })
    expect(status).toBe(413)
  })

  it('500 with a plain detail and no stack trace on an unexpected failure, and nothing half-written', async () => {
    // On a file store, where an answer waits for its writes.
    const dir = mkdtempSync(join(tmpdir(), 'pix-failure-'))
    const fileSb = await startTestSandbox({ database: join(dir, 'sandbox.db') })
    fileSb.sandbox.store.ledger.apply = () => {
      throw new Error('disk on fire at /secret/path.ts:42')
    }
    try {
      const before = storeSnapshot(fileSb)
      const res = await fileSb.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      })
      expect(res).toMatchObject({ status: 500, body: { detail: 'Internal server error' } })
      expect(res.text).not.toMatch(/disk on fire|secret|\.ts/)
      // Readiness stores what it saw of the calls (this 500 among them) once a second on a file,
      // whenever its timer runs (a loaded machine ran it here): that is no part of the use case.
      const written = (snapshot: ReturnType<typeof storeSnapshot>) => {
        const { readiness: _seen, ...tables } = snapshot.tables as Record<string, unknown>
        return { ...snapshot, tables }
      }
      expect(written(storeSnapshot(fileSb))).toEqual(written(before))
    } finally {
      await fileSb.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('in memory as on a file, a write that fails to be recorded is answered 500, never 200, and leaves nothing half-written', async () => {
    const memorySb = await startSandbox(testConfig(), { log: silentLog })
    const { store } = memorySb.sandbox
    // The record step of each decided use case: a charge's row, a transfer's debit, a tenant's company.
    const steps = [
      [store.charges, 'insert', 'POST', '/api/v1/hub/transactions/in', AUTH.main, { amount: 100 }],
      [
        store.ledger,
        'apply',
        'POST',
        '/api/v1/hub/transactions/out',
        AUTH.main,
        { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      ],
      [
        store.identity,
        'insertCompany',
        'POST',
        '/_sandbox/companies',
        `Bearer ${memorySb.adminToken}`,
        { name: 'Never' },
      ],
    ] as const
    try {
      for (const [repository, method, verb, path, auth, json] of steps) {
        const original = repository[method as keyof typeof repository]
        Object.assign(repository, {
          [method]: () => {
            throw new Error('disk on fire')
          },
        })
        const before = storeSnapshot(memorySb).tables
        const res = await request(memorySb.url, verb, path, { auth, json })
        expect([path, res.status, res.text]).toEqual([
          path,
          500,
          '{"detail":"Internal server error"}',
        ])
        expect(storeSnapshot(memorySb).tables).toEqual(before)
        // The store goes on, and what it answers next is recorded.
        Object.assign(repository, { [method]: original })
        const next = await request(memorySb.url, verb, path, { auth, json })
        expect(next.status).toBeLessThan(300)
      }
      const charge = await request(memorySb.url, 'POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 100 },
      })
      expect(store.charges.byId(charge.body.transaction_id)).toBeDefined()
    } finally {
      await memorySb.close()
    }
  })
})
