// How large a request's head (request line and headers) may be, as uvicorn takes it
// (docs/CONTRACT.md#the-framework). Node refuses a head over 16 KiB; uvicorn takes more, by
// backend: h11 refuses a head only when, after a read, the part still incomplete is over 16 KiB,
// so a head that arrives whole in one read is taken, and asyncio reads 256 KiB at most; httptools
// takes headers of any size and refuses a target over 65,535 bytes (its URL parser keeps offsets
// in 16 bits). So: a head of up to 256 KiB is answered, a larger one refused (as h11 refuses it),
// and a target over 65,535 bytes refused (as httptools refuses it); where the two backends
// differ, matching either is faithful.
//
// Node holds a head while it arrives, and 1,000 slow connections each holding 256 KiB took the
// RSS to 550 MB (16 KiB: 77 MB). The large limit is given to a connection only while fewer than
// `LARGE_HEAD_CONNECTIONS` are open; one opened beyond gets Node's 16 KiB, which is also h11's
// limit for a head that arrives in parts: at most 16 MiB of large heads at once.
import type { IncomingMessage, Server } from 'node:http'
import type { Socket } from 'node:net'

/** asyncio's read size: the largest head h11 can receive whole in one read. */
export const MAX_HEAD_BYTES = 256 * 1024
/** Node's default and h11's limit for what of a head is still incomplete after a read. */
export const SMALL_HEAD_BYTES = 16 * 1024
/** httptools' limit on the request target. */
export const MAX_TARGET_BYTES = 65_535
/** Connections open at once that may send a head over 16 KiB. */
export const LARGE_HEAD_CONNECTIONS = 64

/** A target httptools refuses (the URL parser stores offsets and lengths in 16 bits). */
export const targetTooLong = (req: IncomingMessage): boolean =>
  (req.url?.length ?? 0) > MAX_TARGET_BYTES

/**
 * Gives each new connection its head limit: 256 KiB while fewer than `large` connections are
 * open, 16 KiB beyond. Node reads `server.maxHeaderSize` as it sets up each connection's parser,
 * so the listener runs before Node's own.
 */
export function limitHeads(server: Server, large = LARGE_HEAD_CONNECTIONS): void {
  // Not in Node's types, but read by its connection listener (Node 20 and 22).
  const limits = server as Server & { maxHeaderSize: number }
  let open = 0
  const closed = () => open--
  limits.maxHeaderSize = MAX_HEAD_BYTES
  server.prependListener('connection', (socket: Socket) => {
    limits.maxHeaderSize = ++open > large ? SMALL_HEAD_BYTES : MAX_HEAD_BYTES
    socket.once('close', closed)
  })
}
