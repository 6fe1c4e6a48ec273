// Clients with no credentials cannot pin the server's memory (docs/SECURITY.md, "Slow clients"):
// the contract reads a body before it authenticates, so the bytes of bodies still arriving are
// bounded across all requests (over the budget: 503, connection closed), a request must arrive
// whole in time (408), connections are bounded, and normal clients are served meanwhile.
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { BODY_BUDGET_BYTES, heldBodyBytes } from '../../src/http/body-budget.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

const opened: TestSandbox[] = []
const sockets: net.Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  for (const s of opened.splice(0)) await s.close()
})
const start = async (limits = {}) => {
  const s = await startTestSandbox({}, { limits })
  opened.push(s)
  return s
}

/** A raw connection: what it has been answered so far, and whether the server closed it. */
function connect(s: TestSandbox) {
  const socket = net.connect(s.port, '127.0.0.1')
  sockets.push(socket)
  const state = { text: '', closed: false }
  socket.on('data', (d) => (state.text += d))
  socket.on('close', () => (state.closed = true))
  socket.on('error', () => undefined)
  const opened = new Promise<void>((resolve) => socket.once('connect', resolve))
  return { socket, state, opened }
}

const MIB = 1024 * 1024
const until = async (what: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('bodies still arriving', () => {
  it('are held within the budget however many slow clients send them; the others are refused, and normal clients are served', async () => {
    const s = await start()
    const n = Math.ceil(BODY_BUDGET_BYTES / MIB) + 8
    const slow = Array.from({ length: n }, (_, i) => {
      const c = connect(s)
      // No credentials, as the attacker; half to the contract, half to the dashboard's sign-in form.
      const path = i % 2 ? '/api/v1/hub/transactions/in' : '/_sandbox/ui/sign-in'
      c.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MIB}\r\n\r\n`,
      )
      // All of the body but its last byte, in pieces: never finished.
      for (let k = 0; k < 16; k++)
        c.socket.write(Buffer.alloc(k === 15 ? MIB / 16 - 1 : MIB / 16, 0x20))
      return c
    })
    const refused = () => slow.filter((c) => c.state.text.startsWith('HTTP/1.1 503'))
    await until(() => refused().length >= n - Math.floor(BODY_BUDGET_BYTES / MIB))
    expect(heldBodyBytes()).toBeLessThanOrEqual(BODY_BUDGET_BYTES)
    const answer = refused()[0]!.state.text
    expect(answer).toMatch(/\r\nconnection: close\r\n/i)
    expect(answer).toContain('{"detail":"Service temporarily unavailable"}')
    await until(() => refused().every((c) => c.state.closed))
    // Meanwhile, clients that send their body with their headers are served at once.
    const started = performance.now()
    expect(
      (
        await s.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).status,
    ).toBe(200)
    expect((await s.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(200)
    expect(performance.now() - started).toBeLessThan(1000)
    // The slow clients give up: what they held is given back.
    for (const c of slow) c.socket.destroy()
    await until(() => heldBodyBytes() === 0)
  })
})

describe('the server', () => {
  it('answers 408 and closes a connection whose request does not arrive whole in time, headers or body', async () => {
    const s = await start({ headersTimeout: 300, requestTimeout: 600, checkEveryMs: 50 })
    const noHeaders = connect(s)
    noHeaders.socket.write('POST /api/v1/hub/transactions/in HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const noBody = connect(s)
    noBody.socket.write(
      'POST /api/v1/hub/transactions/in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"amo',
    )
    const started = performance.now()
    await until(() => noHeaders.state.closed && noBody.state.closed, 5000)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(noHeaders.state.text).toMatch(/^HTTP\/1.1 408/)
    expect(noBody.state.text).toMatch(/^HTTP\/1.1 408/)
    expect(heldBodyBytes()).toBe(0)
  })

  it('refuses connections beyond its limit, and serves those within it', async () => {
    const s = await start({ maxConnections: 4 })
    const idle = Array.from({ length: 4 }, () => connect(s))
    await Promise.all(idle.map((c) => c.opened))
    const extra = connect(s)
    await until(() => extra.state.closed)
    expect(extra.state.text).toBe('')
    idle[0]!.socket.write(
      `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.main}\r\n\r\n`,
    )
    await until(() => idle[0]!.state.text.endsWith('}'))
    expect(idle[0]!.state.text).toMatch(/^HTTP\/1.1 200/)
    idle[1]!.socket.destroy()
    await until(() => idle[1]!.state.closed)
    await new Promise((r) => setTimeout(r, 50))
    expect(
      (
        await s.request('GET', '/api/v1/user/company', {
          auth: AUTH.main,
          headers: { connection: 'close' },
        })
      ).status,
    ).toBe(200)
  })

  it('closes an idle keep-alive connection after its keep-alive time', async () => {
    const s = await start({ keepAliveTimeout: 300 })
    const c = connect(s)
    c.socket.write(
      `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.main}\r\n\r\n`,
    )
    await until(() => c.state.text.endsWith('}'))
    await until(() => c.state.closed, 3000)
  })
})
