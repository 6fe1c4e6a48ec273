// The path a request is routed on, as uvicorn and Starlette route it: the target up to `?`,
// percent-decoded whole (`%2F` included, as Python's unquote does: UTF-8, U+FFFD for what is
// not), without resolving `.` or `..`. @hono/node-server would normalise the URL first
// (dot segments resolved) and Hono keeps `%2F` encoded, so the contract routes on this instead.
// The sandbox's own paths (control plane, dashboard, documents) keep Hono's reading.
import type { IncomingMessage } from 'node:http'
import { getPath } from 'hono/utils/url'

/** The request target as received, where server.ts had to hand @hono/node-server a stand-in. */
export const TARGET = Symbol('request target as received')
type Incoming = IncomingMessage & { [TARGET]?: string }

const OWN = /^\/(?:_sandbox|docs|openapi\.json|pix\/|\.well-known\/|favicon\.ico)/
const lossy = new TextDecoder()

/** The request target as the client sent it. */
export const targetOf = (incoming: Incoming): string => incoming[TARGET] ?? incoming.url ?? '/'

/** Python's urllib.parse.unquote over an ASCII path. */
export function unquote(path: string): string {
  if (!path.includes('%')) return path
  const bytes: number[] = []
  for (let i = 0; i < path.length; i++) {
    const hex = path.charCodeAt(i) === 0x25 ? path.slice(i + 1, i + 3) : ''
    if (/^[0-9a-fA-F]{2}$/.test(hex)) bytes.push(parseInt(hex, 16)), (i += 2)
    else bytes.push(path.charCodeAt(i) & 0xff)
  }
  return lossy.decode(Uint8Array.from(bytes))
}

/** uvicorn's scope path of a target. */
export function uvicornPath(target: string): string {
  const q = target.indexOf('?')
  return unquote(q < 0 ? target : target.slice(0, q))
}

/**
 * Hono's `getPath` for the app. Starlette matches a route with a regular expression ending in
 * `$`, which Python lets match before one final line feed: `/user/company%0A` is the company.
 */
export function routePath(request: Request, options?: { env?: unknown }): string {
  const incoming = (options?.env as { incoming?: Incoming } | undefined)?.incoming
  if (!incoming) return getPath(request)
  const path = uvicornPath(targetOf(incoming))
  if (OWN.test(path)) return getPath(request)
  return path.endsWith('\n') && !/[/\n]$/.test(path.slice(0, -1)) ? path.slice(0, -1) : path
}
