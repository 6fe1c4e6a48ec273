// The HTTP server, answering as uvicorn (h11) does wherever Node lets the server answer: a
// request the parser refuses gets uvicorn's 400 `Invalid HTTP request received.` (not Node's
// bare 400 or 431), an unknown `Expect` is ignored (not 417), `CONNECT` and `OPTIONS *` reach
// the app (a 404 or 405 there, not a closed connection or a 400), and what h11 refuses that Node
// takes (no Host in HTTP/1.1, two Hosts, an HTTP/0.9 request line) is refused as h11 refuses
// it; a head is as large as uvicorn takes it (head-size.ts). What Node's parser refuses that h11
// takes is listed in docs/CONTRACT.md#deviations.
import {
  createServer,
  ServerResponse,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http'
import type { Socket } from 'node:net'
import { limitHeads, targetTooLong } from './head-size.js'
import { answeredAtTheDoor } from '../admission.js'
import { TARGET } from './path.js'

const INVALID = 'Invalid HTTP request received.'
const INVALID_ANSWER = `HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\ncontent-length: ${INVALID.length}\r\n\r\n${INVALID}`

// What @hono/node-server takes as a host without building a URL (its own fast check).
const SIMPLE_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/

// The last Host found usable: a client sends the same one call after call.
let lastUsable = ''

/** Whether @hono/node-server can build the request's URL from this Host (it answers a bare 400 otherwise). */
function usableHost(host: string): boolean {
  if (host === lastUsable) return true
  if (SIMPLE_HOST.test(host)) {
    lastUsable = host
    return true
  }
  try {
    const { hostname } = new URL(`http://${host}/`)
    return (
      hostname.length === host.length ||
      hostname === (host.includes(':') ? host.replace(/:\d+$/, '') : host).toLowerCase()
    )
  } catch {
    return false
  }
}

/** What h11 refuses in a request Node's parser took. */
function refusedByH11(req: IncomingMessage): boolean {
  // Node reads a request line without a version as HTTP/0.9, which h11 does not speak.
  if (req.httpVersionMajor === 0) return true
  let hosts = 0
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.length === 4 && req.rawHeaders[i]!.toLowerCase() === 'host') hosts++
  return hosts > 1 || (hosts === 0 && req.httpVersionMinor === 1)
}

/**
 * @hono/node-server refuses (a bare 400) a target that does not start with `/` (`*`, an
 * authority), a backslash in the path, and a Host it cannot build a URL with; uvicorn routes
 * them all (to a 404, mostly). Such a request gets a stand-in URL, and the routing reads the
 * target as received (path.ts).
 */
function standIn(req: IncomingMessage & { [TARGET]?: string }): void {
  const url = req.url ?? ''
  const q = url.indexOf('?')
  const backslash = url.indexOf('\\')
  const odd =
    url.charCodeAt(0) === 0x2f
      ? backslash >= 0 && (q < 0 || backslash < q)
      : !/^https?:\/\//i.test(url)
  const host = req.headers.host
  if (odd || (host !== undefined && !usableHost(host))) {
    req[TARGET] = url
    req.url = 'http://localhost/'
  }
}

/**
 * A request in its turn: h11 reads a connection's next request only once the one before it is
 * answered (uvicorn pauses reading meanwhile), where Node runs every request pipelined on a
 * connection at once and queues their answers. Node leaves a queued answer without its socket
 * until the answers before it are written, so a request whose answer has no socket waits for it;
 * if the connection closes first (a `drop` fault, the client gone), it is never run, as uvicorn
 * would never have read it.
 */
function handle(req: IncomingMessage, res: ServerResponse, listener: RequestListener): void {
  if (res.socket === null) return void res.once('socket', () => inTurn(req, res, listener))
  inTurn(req, res, listener)
}

function inTurn(req: IncomingMessage, res: ServerResponse, listener: RequestListener): void {
  // Beyond the connection cap, or while the server stops: 503, as uvicorn answers beyond its
  // --limit-concurrency (admission.ts).
  if (answeredAtTheDoor(req, res)) return
  if (refusedByH11(req) || targetTooLong(req)) {
    res
      .writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
      .end(INVALID)
    return
  }
  standIn(req)
  listener(req, res)
}

/** Node's own answer to a client error it did not parse: uvicorn's 400, as h11 refuses such input too. */
function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const busy =
    (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent ===
    true
  if (!socket.writable || busy) return void socket.destroy()
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n')
  if (err.code?.startsWith('HPE_')) return void socket.end(INVALID_ANSWER)
  socket.destroy()
}

/**
 * The `createServer` @hono/node-server's `serve` takes: Node's server, with uvicorn's answers
 * where Node would give its own.
 */
export const uvicornLikeServer = ((options: ServerOptions, listener: RequestListener): Server => {
  // The missing Host is answered as h11 answers it (handle), not by Node.
  const server = createServer({ ...options, requireHostHeader: false }, (req, res) =>
    handle(req, res, listener),
  )
  server.on('clientError', onClientError)
  limitHeads(server)
  // An Expect other than 100-continue: h11 ignores it, where Node answers 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    handle(req, res, listener),
  )
  // CONNECT is a request like any other to uvicorn (a 404 or a 405 from the app); Node hands
  // over the socket, and the answer is written to it and the connection closed.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // The server no longer watches this socket: a client that resets it must not crash the process.
    socket.on('error', () => socket.destroy())
    const res = new ServerResponse(req)
    res.shouldKeepAlive = false
    res.assignSocket(socket)
    res.once('finish', () => {
      res.detachSocket(socket)
      socket.end()
    })
    // Its body, if any, is not parsed: the app reads none.
    req.push(null)
    handle(req, res, listener)
  })
  return server
}) as typeof createServer
