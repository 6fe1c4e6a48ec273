// What the real server's framework does for requests that match no route (docs/CONTRACT.md#the-framework): 307 to the
// path without its trailing slashes when that path exists (Starlette's redirect), 405 with
// `Allow` when the path exists for other methods, 404 otherwise. FastAPI's routes do not
// answer HEAD, so neither do ours.
import type { IncomingMessage } from 'node:http'
import type { Context, NotFoundHandler } from 'hono'
import { AppError } from '../domain/errors.js'
import { errorResponse } from './errors.js'
import { redirectLocation } from './uvicorn/redirect.js'

interface RouteEntry {
  method: string
  path: string
}

type Matcher = { pattern: RegExp; methods: Set<string> }

function buildMatchers(routes: RouteEntry[]): Matcher[] {
  const byPath = new Map<string, Set<string>>()
  for (const r of routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue
    const set = byPath.get(r.path) ?? new Set<string>()
    set.add(r.method)
    byPath.set(r.path, set)
  }
  // `\n?`: Starlette's patterns end in Python's `$`, which also matches before a final line feed.
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(
      '^' + path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+') + '\n?$',
    ),
    methods,
  }))
}

export function createFallback(routes: () => RouteEntry[]) {
  let matchers: Matcher[] | undefined
  const allowed = (path: string): string[] => {
    matchers ??= buildMatchers(routes())
    const methods = new Set<string>()
    for (const m of matchers) if (m.pattern.test(path)) m.methods.forEach((x) => methods.add(x))
    return [...methods].sort()
  }
  const methodNotAllowed = (c: Context, methods: string[]) => {
    c.header('Allow', methods.join(', '))
    return errorResponse(c, new AppError('method_not_allowed'))
  }

  const notFound: NotFoundHandler = (c) => {
    const path = c.req.path
    if (path.length > 1 && path.endsWith('/')) {
      const bare = path.replace(/\/+$/, '') || '/'
      if (allowed(bare).length) {
        const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
        const location = incoming
          ? redirectLocation(incoming, bare)
          : Object.assign(new URL(c.req.url), { pathname: bare }).toString()
        return new Response(null, { status: 307, headers: { location } })
      }
    }
    const methods = allowed(path)
    if (methods.length) return methodNotAllowed(c, methods)
    return errorResponse(c, new AppError('not_found'))
  }

  /** A 405 for HEAD where only GET is declared, as FastAPI does, instead of Hono's implicit HEAD. */
  const refuseImplicitHead = (c: Context, prefix: string): Response | undefined => {
    if (c.req.method !== 'HEAD' || !c.req.path.startsWith(prefix)) return undefined
    const methods = allowed(c.req.path)
    return methods.length && !methods.includes('HEAD') ? methodNotAllowed(c, methods) : undefined
  }

  return { notFound, refuseImplicitHead }
}
