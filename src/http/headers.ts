// Reading request headers without building a WHATWG Headers object. On @hono/node-server,
// `c.req.header()` materializes one per request, which showed in profiles; Node's own parsed
// headers (`c.env.incoming.headers`, lower-case names) are already there. Falls back to Hono's
// accessor anywhere else.
import type { IncomingHttpHeaders } from 'node:http'
import type { Context } from 'hono'

const incomingOf = (c: Context): IncomingHttpHeaders | undefined =>
  (c.env as { incoming?: { headers: IncomingHttpHeaders } } | undefined)?.incoming?.headers

/** One header by lower-case name. */
export function header(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c)
  if (!incoming) return c.req.header(name)
  const v = incoming[name]
  return Array.isArray(v) ? v.join(', ') : v
}

/** All headers, lower-case names (Node's parsed object itself on @hono/node-server: no copy). */
export function allHeaders(c: Context): IncomingHttpHeaders {
  return incomingOf(c) ?? c.req.header()
}
