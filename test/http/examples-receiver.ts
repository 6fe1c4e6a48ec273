// The two ends of the examples' story that are not the sandbox (examples-story.test.ts): the
// webhook receiver its subscription names, and curl, whose request the journal's example shows.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'

/** The examples' receiver: POST /webhooks's example subscribes it. */
const RECEIVER = 'http://127.0.0.1:3000'

/**
 * A receiver that answers 204 to everything, as the examples' does, served on a free port; until
 * `close()`, what is sent to the examples' receiver reaches it. The sandbox sends webhooks with
 * the global fetch, read when it starts: start this first.
 */
export async function examplesReceiver(): Promise<{ close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(204).end())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const served = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const realFetch = globalThis.fetch
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    return realFetch(
      url.startsWith(`${RECEIVER}/`) ? served + url.slice(RECEIVER.length) : input,
      init,
    )
  }) as typeof fetch
  return {
    close: async () => {
      globalThis.fetch = realFetch
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}

/** POST /api/v1/hub/transactions/in written as curl writes it, and the answer's body. */
export function curl(
  port: number,
  auth: string,
  json: unknown,
): Promise<{ status: number; text: string }> {
  const body = JSON.stringify(json)
  const head = [
    'POST /api/v1/hub/transactions/in HTTP/1.1',
    'Host: localhost:8080',
    `Authorization: ${auth}`,
    'Content-Type: application/json',
    'Accept: */*',
    'User-Agent: curl/8.5.0',
    `Content-Length: ${Buffer.byteLength(body)}`,
  ]
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`),
    )
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (d) => (text += d))
    socket.on('error', reject)
    socket.on('end', () => {
      const [status, rest] = [Number(text.split(' ')[1]), text.slice(text.indexOf('\r\n\r\n') + 4)]
      resolve({ status, text: rest })
    })
  })
}
