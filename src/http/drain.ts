// Stopping the HTTP server without cutting off what has reached it
// (docs/decisions/2026-11-24-shutdown-drain.md). Node's http `close()` destroys at once every connection with
// no request in progress, a request already sent on it but not yet read included: under load,
// each keep-alive client lost the one it had just sent (a reset). Here the server stops
// accepting, every answer from then on says `Connection: close` (so a busy connection ends
// after its answer and its client's next request goes elsewhere), and a connection is closed
// only once it has been quiet for a while: nothing read, nothing written, no answer under way.
//
// Quiet, and checked after the event loop has read the sockets: a sweep from a timer, as
// `closeIdleConnections()` every 10 ms was, runs before the loop reads what arrived since its
// last turn, so under load a request waiting unread in the socket looked idle and its
// connection was destroyed (a reset, with no FIN first). And quiet for `QUIET_MS`: a client
// that had its answer just before the drain began sends its next request within a moment, and
// gets it answered (with `Connection: close`) rather than crossing our FIN on the wire.
import type { Server as HttpServer } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

/** How often connections are looked at while draining. */
const SWEEP_MS = 5
/** How long a connection must have been quiet to be closed by `close()`: a test suite's (its client keeping idle sockets, its requests done) waits little. */
export const QUIET_MS = 20
/**
 * The same on a signal (SIGTERM, SIGINT: a deployment stopping, its clients maybe still
 * sending). A loaded keep-alive client's next request can come tens of milliseconds after its
 * answer, and one that crosses our FIN is lost: 20 ms lost 19-52 requests per SIGTERM of 64
 * clients pausing 0-100 ms. Within a second such a client has sent again (and been answered,
 * `Connection: close`); a connection quiet that long is at rest.
 */
export const SIGNAL_QUIET_MS = 1000

/** What a sweep last saw of a connection, and since when. */
interface Seen {
  read: number
  written: number
  since: number
}

/** The response a connection is writing: Node sets it while an answer is under way (its own closeIdleConnections reads it too). */
const answering = (socket: Socket): boolean => {
  const res = (socket as Socket & { _httpMessage?: { finished?: boolean } | null })._httpMessage
  return !!res && !res.finished
}

export interface Drainable {
  /**
   * Stops accepting, drains, then closes; `onClosed` once no connection is left (idle ones are
   * closed once quiet for `quietMs`, busy ones cut after `graceMs`).
   */
  drain(graceMs: number, quietMs: number, onClosed: () => void): void
}

/** Keeps the server's connections (a Set, per connection: requests pay nothing) for `drain` to close one by one. */
export function drainable(server: HttpServer): Drainable {
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return {
    drain(graceMs, quietMs, onClosed) {
      // Added only now, so that no request pays for it before.
      server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'))
      const seen = new Map<Socket, Seen>()
      const sweep = () => {
        const now = performance.now()
        for (const socket of sockets) {
          const last = seen.get(socket)
          if (
            !last ||
            answering(socket) ||
            last.read !== socket.bytesRead ||
            last.written !== socket.bytesWritten
          ) {
            seen.set(socket, { read: socket.bytesRead, written: socket.bytesWritten, since: now })
          } else if (now - last.since >= quietMs) {
            socket.destroy()
          }
        }
      }
      // From the check phase: after the loop has read what the sockets hold.
      const sweeps = setInterval(() => setImmediate(sweep), SWEEP_MS)
      // net.Server's close: stop accepting, and no more (the http one's first step is the destruction above).
      NetServer.prototype.close.call(server, () => {
        clearTimeout(force)
        clearInterval(sweeps)
        onClosed()
      })
      setImmediate(sweep)
      const force = setTimeout(() => server.closeAllConnections(), graceMs)
      force.unref()
    },
  }
}
