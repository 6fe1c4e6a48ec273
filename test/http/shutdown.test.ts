// Clean shutdown: what SIGTERM triggers lets in-flight requests finish, then closes the store.
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox } from '../harness.js'

describe('close()', () => {
  it('finishes a request that is in flight, refuses new connections, then closes the store', async () => {
    const sb = await startTestSandbox()
    const url = new URL(sb.url + '/api/v1/hub/transactions/in')
    const body = JSON.stringify({ amount: 1000 })
    let midway!: () => void
    const started = new Promise<void>((r) => (midway = r))
    let req!: http.ClientRequest
    const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req = http.request(url, {
        method: 'POST',
        headers: { authorization: AUTH.main, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      })
      req.on('error', reject)
      req.write(body.slice(0, 5), () => midway())
    })
    await started
    await new Promise((r) => setTimeout(r, 50))
    let closed = false
    const closing = sb.close().then(() => (closed = true))
    await new Promise((r) => setTimeout(r, 100))
    expect(closed).toBe(false)
    await expect(fetch(sb.url + '/_sandbox/health')).rejects.toThrow()
    // The rest of the body is sent only now, so however slow the machine, close() cannot have
    // finished before the checks above.
    req.end(body.slice(5))
    const res = await reply
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text).status).toBe('pending')
    await closing
    expect(sb.sandbox.store.db.open).toBe(false)
  })
})

describe('close() under load', () => {
  it('answers every request that reached it on keep-alive connections, refuses new connections, and ends idle ones', async () => {
    const sb = await startTestSandbox()
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 })
    const body = JSON.stringify({ amount: 1000 })
    const outcomes = new Map<string, number>()
    const one = () =>
      new Promise<string>((resolve) => {
        const req = http.request(sb.url + '/api/v1/hub/transactions/in', {
          method: 'POST',
          agent,
          headers: { authorization: AUTH.main, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        })
        req.on('response', (res) => {
          res.resume()
          res.on('end', () => resolve(String(res.statusCode)))
        })
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
        req.end(body)
      })
    let stop = false
    // Each client sends its next request as soon as it has its answer, on the same connection.
    const clients = Array.from({ length: 16 }, async () => {
      while (!stop) {
        const outcome = await one()
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
        if (outcome === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 5))
      }
    })
    // An idle keep-alive connection, which must not hold close() up.
    const idle = new http.Agent({ keepAlive: true })
    await new Promise((resolve) => http.get(sb.url + '/_sandbox/health', { agent: idle }, (res) => res.resume().on('end', resolve)))
    while ((outcomes.get('200') ?? 0) < 300) await new Promise((r) => setTimeout(r, 10))
    const started = Date.now()
    await sb.close()
    expect(Date.now() - started).toBeLessThan(3000)
    await new Promise((r) => setTimeout(r, 100))
    stop = true
    await Promise.all(clients)
    agent.destroy()
    idle.destroy()
    // Answered, or never let in: no request is cut off (a reset or a hang-up) once sent.
    expect([...outcomes.keys()].sort()).toEqual(['200', 'ECONNREFUSED'])
  })
})
