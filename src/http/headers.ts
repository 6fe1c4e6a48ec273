// Reading request headers without building a WHATWG Headers object. On @hono/node-server,
// `c.req.header()` materializes one per request, which showed in profiles; Node's own parsed
// headers (`c.env.incoming.headers`, lower-case names) are already there. Falls back to Hono's
// accessor anywhere else.
import type { IncomingHttpHeaders } from 'node:http'
import type { Context } from 'hono'
import { TARGET } from './uvicorn/path.js'

type Incoming = {
  headers: IncomingHttpHeaders
  rawHeaders: string[]
  url?: string
  [TARGET]?: string
}
const incomingMessage = (c: Context): Incoming | undefined =>
  (c.env as { incoming?: Incoming } | undefined)?.incoming
const incomingOf = (c: Context): IncomingHttpHeaders | undefined => incomingMessage(c)?.headers

/** One header by lower-case name. */
export function header(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c)
  if (!incoming) return c.req.header(name)
  const v = incoming[name]
  return Array.isArray(v) ? v.join(', ') : v
}

/** All headers as received, as name, value, name, value... (Node's own list: no copy). */
export function rawHeaders(c: Context): readonly string[] {
  return incomingMessage(c)?.rawHeaders ?? Object.entries(c.req.header()).flat()
}

/** The request target as received (path and query); Hono's full URL costs a string build. */
export function rawUrl(c: Context): string {
  const incoming = incomingMessage(c)
  return incoming ? (incoming[TARGET] ?? incoming.url ?? '/') : c.req.url
}
