// Which connections the server serves, and what it answers on the others (docs/SECURITY.md,
// "Slow clients"; docs/RELIABILITY.md). A request that was sent is answered, never reset: past
// the connection cap Node closed each new connection as it accepted it, a request already in it
// included (1,000 idle sockets without credentials, and every later connection was reset, health
// checks too), and a stopping server closed its listener with new connections still in the
// kernel's accept queue (19 and 43 reset in 2 of 4 SIGTERMs under load). Such a connection is
// accepted and its requests answered 503 with `Retry-After` and `Connection: close` (while the
// server stops, once it has stopped listening: drain.ts), as uvicorn answers beyond its
// `--limit-concurrency` (flow_control.py), the health check excepted: a probe must tell a busy
// server from a dead one.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** How a connection the server does not serve as usual is answered; each answer on it ends it (`Connection: close`). */
interface Terms {
  /** Its requests are answered 503 (the health check excepted) rather than served. */
  refused: boolean
  /** Settled once such a 503 may be given; until then the request waits for it. */
  held?: Promise<void>
}

const TERMS = Symbol('admission terms')
type Admitted = Socket & { [TERMS]?: Terms }

/** Beyond the cap: answered, then closed, so that it does not linger. */
const OVER_CAP: Terms = { refused: true }
/** Open when the server began to stop: served, each answer ending it (drain.ts). */
const TO_THE_END: Terms = { refused: false }

/** The seconds a 503 here asks the client to wait before it tries again. */
export const RETRY_AFTER_S = 1
/** A connection beyond the cap that has sent nothing in this time is closed (nothing was sent, so nothing is lost). */
export const SILENT_MS = 1000
/** Connections open at once beyond which Node closes new ones as it accepts them, as a multiple of the cap: the last bound, where an answer is no longer given. */
export const HARD_CAP_FACTOR = 2

/** uvicorn's text, status and headers (flow_control.py's `service_unavailable`), with `Retry-After`. */
const UNAVAILABLE = 'Service Unavailable'
const HEALTH = /^\/_sandbox\/health(?:\?|$)/

export interface Admission {
  /** Every connection open now. */
  readonly sockets: ReadonlySet<Socket>
  /** performance.now() when the last connection was accepted. */
  readonly lastAccepted: number
  /**
   * From now on: connections open now are served, each answer closing its connection; requests
   * on new ones wait, and are answered 503 (then closed) once the returned function is called,
   * when the listener has closed: a client waiting for its answer opens no other connection, so
   * the listener can become quiet, and once it is closed the client's next one is refused. The
   * health check is answered at once.
   */
  stop(): () => void
  /** Whether the connection was accepted after `stop`. */
  cameWhileStopping(socket: Socket): boolean
}

/** Keeps count of the server's connections, and marks those it will not serve as usual (`answeredAtTheDoor`). */
export function admit(server: Server, maxConnections: number): Admission {
  const sockets = new Set<Socket>()
  let served = 0
  let newcomers: Terms | undefined
  let lastAccepted = performance.now()
  server.maxConnections = maxConnections * HARD_CAP_FACTOR
  server.on('connection', (socket: Admitted) => {
    lastAccepted = performance.now()
    sockets.add(socket)
    const within = !newcomers && served < maxConnections
    if (within) served++
    else if (newcomers) socket[TERMS] = newcomers
    else {
      socket[TERMS] = OVER_CAP
      closeIfSilent(socket)
    }
    socket.once('close', () => {
      sockets.delete(socket)
      if (within) served--
    })
  })
  return {
    sockets,
    get lastAccepted() {
      return lastAccepted
    },
    stop() {
      for (const socket of sockets as Set<Admitted>) socket[TERMS] ??= TO_THE_END
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      newcomers = { refused: true, held }
      return release
    },
    cameWhileStopping: (socket: Admitted) => newcomers !== undefined && socket[TERMS] === newcomers,
  }
}

/**
 * Closes a connection beyond the cap that has sent nothing within SILENT_MS. Looked at after the
 * event loop has read the sockets (a timer runs before it does: a request waiting unread would
 * look like silence, and be reset).
 */
function closeIfSilent(socket: Socket): void {
  setTimeout(
    () => setImmediate(() => socket.bytesRead === 0 && socket.destroy()),
    SILENT_MS,
  ).unref()
}

/**
 * Answers a request on a connection the server does not serve as usual, and says so (true); sets
 * `Connection: close` on the answer of one it serves (to the end, or the health check). False,
 * doing nothing, on any other connection: one property read.
 */
export function answeredAtTheDoor(req: IncomingMessage, res: ServerResponse): boolean {
  const terms = (req.socket as Admitted)[TERMS]
  if (!terms) return false
  if (terms.refused && !HEALTH.test(req.url ?? '')) {
    refuse(req, res, terms.held)
    return true
  }
  res.setHeader('Connection', 'close')
  return false
}

/**
 * The 503, once the request has arrived whole (and once `held` has settled): closing a
 * connection with part of a body still arriving resets it, and its client may lose the answer
 * with it. The body is read and dropped (a body that never arrives is the request timeout's, a
 * 408).
 */
function refuse(req: IncomingMessage, res: ServerResponse, held: Promise<void> | undefined): void {
  const answer = () =>
    res
      .writeHead(503, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': String(UNAVAILABLE.length),
        'retry-after': String(RETRY_AFTER_S),
        connection: 'close',
      })
      .end(UNAVAILABLE)
  const arrived = req.complete
    ? undefined
    : new Promise<void>((resolve) => req.once('end', resolve).resume())
  const wait = arrived && held ? Promise.all([arrived, held]) : (arrived ?? held)
  if (wait) wait.then(answer)
  else answer()
}
