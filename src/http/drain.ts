// Stopping the HTTP server without cutting off what has reached it (docs/DESIGN.md, "Shutdown
// drains keep-alive connections"). Node's http `close()` destroys at once every connection with
// no request in progress, a request already sent on it but not yet read included: under load,
// each keep-alive client lost the one it had just sent (a reset). Here the server stops
// accepting, every answer from then on says `Connection: close` (so a busy connection ends
// after its answer and its client's next request goes elsewhere), and what is left idle is
// closed a moment later, again and again, until nothing is left or the grace period ends.
import type { Server as HttpServer } from 'node:http'
import { Server as NetServer } from 'node:net'

/** How often idle keep-alive connections are closed while draining: a request on its way over loopback or a LAN has arrived and been read by then, and a test suite's close() (its client keeping idle sockets) does not wait. */
const IDLE_SWEEP_MS = 10

/** Stops accepting, drains, then closes; `onClosed` once no connection is left (busy ones are cut after `graceMs`). */
export function drain(server: HttpServer, graceMs: number, onClosed: () => void): void {
  // Added only now, so that no request pays for it before.
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'))
  // net.Server's close: stop accepting, and no more (the http one's first step is the destruction above).
  NetServer.prototype.close.call(server, () => {
    clearTimeout(force)
    clearInterval(sweep)
    onClosed()
  })
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS)
  const force = setTimeout(() => server.closeAllConnections(), graceMs)
  force.unref()
}
