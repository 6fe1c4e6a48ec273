// Requests pipelined on one connection (sent before the answer to the one before): uvicorn (h11)
// reads a connection's next request only once it has answered the one before, so each is run in
// its turn. A `drop` fault closes the connection: the requests behind the dropped one were never
// run, and nothing says they were answered (docs/CONTROL-PLANE.md#notes).
import net from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, rowCounts, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(() => sb.close())

const USER = 'loja-exemplo-user'
const balance = () => sb.sandbox.store.ledger.balance(USER)!

const post = (path: string, json: unknown) => {
  const body = JSON.stringify(json)
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.main}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}
const transfer = (amount: number) =>
  post('/api/v1/hub/transactions/out', {
    amount,
    pix_key: 'maria@example.com',
    pix_type: 'EMAIL',
  })
const company = `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.main}\r\n\r\n`

/** Writes `requests` in one write on a new connection: what it was answered, once the server closed it (or `answers` came). */
function pipelined(requests: string[], answers = Infinity) {
  return new Promise<{ text: string; closed: boolean }>((resolve, reject) => {
    const socket = net.connect(sb.port, '127.0.0.1', () => socket.write(requests.join('')))
    let text = ''
    socket.on('data', (d) => {
      text += d
      if ((text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= answers && text.endsWith('}')) {
        socket.destroy()
        resolve({ text, closed: false })
      }
    })
    socket.on('close', () => resolve({ text, closed: true }))
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET') reject(err)
    })
  })
}

describe('pipelined requests', () => {
  it('are run one after the other and answered in order', async () => {
    const before = balance()
    const { text } = await pipelined([transfer(100), transfer(200), company], 3)
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1])
    expect(statuses).toEqual(['200', '200', '200'])
    expect(text).toContain('"api_active":true')
    expect(balance()).toBe(before - 300)
  })

  it('behind a dropped call are never run: only the dropped call takes effect, and the journal lists no answer it did not give', async () => {
    await sb.admin('POST', '/faults', {
      operation: 'transfer',
      drop: true,
      times: 1,
    })
    const before = balance()
    const transfersBefore = rowCounts(sb).transfers!
    const { text, closed } = await pipelined([transfer(111), transfer(222), company])
    // The connection was closed with no answer at all.
    expect(closed).toBe(true)
    expect(text).toBe('')
    // The dropped transfer was made; the one pipelined behind it was not.
    expect(rowCounts(sb).transfers).toBe(transfersBefore + 1)
    expect(balance()).toBe(before - 111)
    const journal = (await sb.admin('GET', '/requests?limit=10')).body.data as {
      method: string
      path: string
      status: number
      dropped: boolean
    }[]
    const calls = journal.filter((e) => e.path.startsWith('/api/v1/'))
    // One call, dropped; nothing recorded as answered 200 that the client never got.
    expect(calls).toEqual([
      expect.objectContaining({ path: '/api/v1/hub/transactions/out', dropped: true }),
    ])
    // The next transfer, on a new connection, is made and answered.
    const again = await pipelined([transfer(222)], 1)
    expect(again.text).toMatch(/^HTTP\/1\.1 200/)
    expect(balance()).toBe(before - 333)
  })
})
