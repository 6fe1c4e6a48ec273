// Webhook receivers for readiness tests, on loopback. A correct one verifies signatures and
// timestamps with the standardwebhooks package (4xx when either is wrong) and answers 2xx again
// for a webhook-id it has taken; a careless one takes everything; others reject duplicates or
// answer slowly, one keys its HMAC with the whsec_ text itself rather than the bytes it
// encodes, so it refuses every genuine delivery, and one answers 400 to the event types it does
// not handle. Any of them can hold up the process once it has answered (`stallMs`), as a loaded
// machine does. `secret` is set once the subscription (and so its secret) exists.
import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export type Behaviour =
  | 'correct'
  | 'careless'
  | 'rejects-duplicates'
  | 'literal-key'
  | 'rejects-unknown-types'

/** The event types a receiver that refuses the others handles. */
const HANDLED = new Set([
  'charge.paid',
  'charge.cancelled',
  'transfer.succeeded',
  'transfer.failed',
])

export interface HookReceiver {
  url: string
  secret: string
  /** Milliseconds to wait before answering. */
  delayMs: number
  /**
   * Milliseconds to hold up this process's event loop once the next answer is sent, as a loaded
   * machine or a busy test process does to the sandbox in it (then back to 0).
   */
  stallMs: number
  received: { id: string | undefined; status: number }[]
  close(): Promise<void>
}

export async function startHookReceiver(behaviour: Behaviour = 'correct'): Promise<HookReceiver> {
  const taken = new Set<string>()
  const rx: HookReceiver = {
    url: '',
    secret: '',
    delayMs: 0,
    stallMs: 0,
    received: [],
    close: async () => undefined,
  }
  const decide = (headers: http.IncomingHttpHeaders, body: string): number => {
    const id = headers['webhook-id'] as string | undefined
    if (behaviour === 'careless') return 200
    if (behaviour === 'literal-key') {
      const expected = createHmac('sha256', rx.secret)
        .update(`${id}.${headers['webhook-timestamp']}.${body}`)
        .digest('base64')
      const given = String(headers['webhook-signature'] ?? '')
        .split(' ')
        .map((s) => Buffer.from(s.replace(/^v1,/, '')))
      return given.some(
        (g) =>
          g.length === Buffer.byteLength(expected) && timingSafeEqual(g, Buffer.from(expected)),
      )
        ? 204
        : 401
    }
    try {
      new Webhook(rx.secret).verify(body, headers as Record<string, string>)
    } catch {
      return 400
    }
    if (
      behaviour === 'rejects-unknown-types' &&
      !HANDLED.has((JSON.parse(body) as { type?: string }).type ?? '')
    )
      return 400
    if (id !== undefined && taken.has(id)) return behaviour === 'rejects-duplicates' ? 409 : 200
    if (id !== undefined) taken.add(id)
    return 204
  }
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const status = decide(req.headers, body)
      rx.received.push({ id: req.headers['webhook-id'] as string | undefined, status })
      setTimeout(() => {
        const stall = rx.stallMs
        rx.stallMs = 0
        if (stall) res.once('finish', () => busyWait(stall))
        res.writeHead(status).end()
      }, rx.delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  rx.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  rx.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return rx
}

/** Holds the event loop: nothing else in this process runs meanwhile. */
function busyWait(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // busy, on purpose
  }
}
