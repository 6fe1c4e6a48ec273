// Stopping the HTTP server without cutting off what has reached it
// (docs/decisions/2026-11-24-shutdown-drain.md). Node's http `close()` destroys at once every connection with
// no request in progress, a request already sent on it but not yet read included: under load,
// each keep-alive client lost the one it had just sent (a reset). Here every answer on a
// connection open when the drain began says `Connection: close` (so a busy connection ends after
// its answer and its client's next request goes elsewhere), and a connection is closed only once
// it has been quiet for a while: nothing read, nothing written, no answer under way.
//
// The listener is not closed at once either: closing it resets every connection still in the
// kernel's accept queue, requests already written on them included (19 and 43 in 2 of 4 SIGTERMs
// of 64 clients that never pause). It keeps accepting while connections keep coming; a request on
// a new connection waits, unanswered (admission.ts): its client, waiting, opens no other, so the
// listener becomes quiet, and is closed once no connection has come for `quietMs` and none waits
// in the kernel's accept queue or half open (accept-queue.ts), from the check phase, just after
// the loop accepted what was waiting (a loaded machine can complete a loopback handshake tens of
// milliseconds late: 14 of 16 connections were caught so). Then the waiting requests are answered
// 503 with `Retry-After` and `Connection: close`, and a client's next connection is refused
// (ECONNREFUSED: nothing was sent). Only clients that keep opening new connections without
// waiting for their answers keep the listener open to the end of the grace period, where a
// connection caught in the accept queue may be reset. (Keeping new connections alive with a 503
// at once was tried: clients that never pause spent the server's time on 503s in a loop, and
// pools opened new connections as the drain closed their idle ones.)
//
// Quiet, and checked after the event loop has read the sockets: a sweep from a timer, as
// `closeIdleConnections()` every 10 ms was, runs before the loop reads what arrived since its
// last turn, so under load a request waiting unread in the socket looked idle and its
// connection was destroyed (a reset, with no FIN first). And quiet for `QUIET_MS`: a client
// that had its answer just before the drain began sends its next request within a moment, and
// gets it answered (with `Connection: close`) rather than crossing our FIN on the wire.
import type { Server as HttpServer } from 'node:http'
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net'
import { connectionsWaiting } from './accept-queue.js'
import type { Admission } from './admission.js'

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
   * Drains, stops accepting once no connection comes for `quietMs`, then closes; `onClosed` once
   * no connection is left (idle ones are closed once quiet for `quietMs`, busy ones cut after
   * `graceMs`, when the listener is closed too if it was not yet).
   */
  drain(graceMs: number, quietMs: number, onClosed: () => void): void
}

/** Drains the server's connections, as `admission` keeps them. */
export function drainable(server: HttpServer, admission: Admission): Drainable {
  return {
    drain(graceMs, quietMs, onClosed) {
      const began = performance.now()
      let listening = true
      const release = admission.stop()
      const stopListening = () => {
        listening = false
        // net.Server's close: stop accepting, and no more (the http one's first step is the destruction above).
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force)
          clearInterval(sweeps)
          onClosed()
        })
        release()
      }
      const seen = new Map<Socket, Seen>()
      const sweep = () => {
        const now = performance.now()
        // Not before a whole turn of the loop has accepted what was queued when the drain began.
        if (
          listening &&
          now - Math.max(began, admission.lastAccepted) >= quietMs &&
          !connectionsWaiting(server.address() as AddressInfo)
        )
          stopListening()
        for (const socket of admission.sockets) {
          // Kept while the listener is open (one with nothing sent yet too): its client would only open another.
          if (listening && admission.cameWhileStopping(socket)) continue
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
      // From the check phase: after the loop has read what the sockets hold, and accepted what
      // the listener holds.
      const sweeps = setInterval(() => setImmediate(sweep), SWEEP_MS)
      // Past the grace: the listener closed (the waiting requests answered), then everything cut:
      // the HTTP server's connections, and those it handed over (a CONNECT's socket, which its
      // closeAllConnections() does not see: one whose answer never finished held close() for good).
      const force = setTimeout(
        () =>
          setImmediate(() => {
            if (listening) stopListening()
            setImmediate(() => {
              server.closeAllConnections()
              for (const socket of admission.sockets) socket.destroy()
            })
          }),
        graceMs,
      )
      force.unref()
    },
  }
}
