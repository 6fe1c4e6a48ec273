// Records every request in the journal (the journal's own endpoints, health checks, the
// documentation and the dashboard excepted, so polling them does not drown what a test suite
// wants to count), and tells the live views.
import type { MiddlewareHandler } from 'hono'
import type { AppEnv, HttpDeps } from './env.js'
import { rawHeaders, rawUrl } from './headers.js'

const SKIP = /^\/(?:_sandbox\/(?:requests|health|openapi\.json|ui)|docs|openapi\.json|favicon\.ico)(?:\/|$)/

/**
 * `inner` runs inside the journaled span, as part of this same middleware: each middleware
 * layer costs every request an async frame, and the edge rules need none of their own.
 */
export function journal(deps: HttpDeps, inner: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  const { clock } = deps.sandbox
  return async (c, next) => {
    if (SKIP.test(c.req.path)) return inner(c, next)
    const started = performance.now()
    const at = clock.now()
    let responseBody: string | null = null
    // Keep the text the handler answers, instead of re-reading the response stream; this is
    // Hono's own c.json, with the text kept on the way.
    const body = c.body as (data: string | null, arg?: unknown, headers?: Record<string, string>) => Response
    c.json = ((object: unknown, arg?: unknown, headers?: Record<string, string>) => {
      responseBody = JSON.stringify(object) ?? null
      return body(responseBody, arg, { 'Content-Type': 'application/json', ...headers })
    }) as unknown as typeof c.json
    const refused = await inner(c, next)
    if (refused) c.res = refused
    const status = c.res.status
    // The body was read by the handler (or is read now, while it is still small enough).
    const requestBody = status === 413 || c.req.method === 'GET' ? null : await c.req.text().catch(() => null)
    const url = rawUrl(c)
    const q = url.indexOf('?')
    const companyId = c.get('principal')?.company.id ?? null
    deps.journal.record({
      at,
      method: c.req.method,
      path: c.req.path,
      query: q < 0 ? '' : url.slice(q),
      status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      companyId,
      // The headers as received; the journal redacts when it is read.
      rawHeaders: rawHeaders(c),
      requestBody,
      responseBody,
    })
    deps.sandbox.onChange?.({ kind: 'request', companyId })
  }
}
