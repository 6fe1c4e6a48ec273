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
    let finish!: () => void
    const started = new Promise<void>((r) => (midway = r))
    const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { authorization: AUTH.main, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      })
      req.on('error', reject)
      finish = () => req.end(body.slice(5))
      req.write(body.slice(0, 5), () => midway())
    })
    await started
    // Half the body is on the wire; the server (in this process) gets a moment to read the headers.
    await new Promise((r) => setTimeout(r, 50))
    let closed = false
    const closing = sb.close().then(() => (closed = true))
    await expect(fetch(sb.url + '/_sandbox/health')).rejects.toThrow()
    // The request cannot end before the test sends the rest: close() must still be waiting for it.
    expect(closed).toBe(false)
    finish()
    const res = await reply
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text).status).toBe('pending')
    await closing
    expect(sb.sandbox.store.db.open).toBe(false)
  })
})
