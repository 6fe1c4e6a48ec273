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
