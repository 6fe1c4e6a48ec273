// Stopping never waits past its grace for a connection the HTTP server no longer watches: a
// CONNECT's socket is handed over (src/http/uvicorn/server.ts), so Node's closeAllConnections()
// does not see it, and one whose answer never finished held close() for good (the differential
// test's afterAll hung 3 times in 54 runs of the fast tier). Past the grace, every connection is cut.
import { createServer, ServerResponse, type IncomingMessage } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { admit } from '../../src/http/admission.js'
import { drainable } from '../../src/http/drain.js'

const opened: Socket[] = []
afterEach(() => {
  for (const s of opened.splice(0)) s.destroy()
})

it('closes, past its grace, a handed-over connection whose answer never finished', async () => {
  const server = createServer((_req, res) => res.end('ok'))
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // An answer under way that never ends: the socket is busy to the drain's eyes.
    new ServerResponse(req).assignSocket(socket)
  })
  const draining = drainable(server, admit(server, 100))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1')
  opened.push(client)
  client.on('error', () => undefined)
  client.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n')
  await new Promise((resolve) => setTimeout(resolve, 100))
  const began = performance.now()
  const closed = new Promise<number>((resolve) =>
    draining.drain(300, 20, () => resolve(performance.now() - began)),
  )
  const waited = await Promise.race([
    closed,
    new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 5000)),
  ])
  expect(waited, 'close() waited for the handed-over connection past its grace').toBeLessThan(5000)
})
