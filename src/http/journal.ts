// Records every request in the journal (the journal's own endpoints, health checks and the
// documentation excepted, so polling them does not drown what a test suite wants to count).
import type { MiddlewareHandler } from 'hono'
import type { AppEnv, HttpDeps } from './env.js'
import { allHeaders } from './headers.js'

const SKIP = /^\/(?:_sandbox\/(?:requests|health|openapi\.json)|docs|openapi\.json|favicon\.ico)(?:\/|$)/

export function journal(deps: HttpDeps): MiddlewareHandler<AppEnv> {
  const { clock } = deps.sandbox
  return async (c, next) => {
    if (SKIP.test(c.req.path)) return next()
    const started = performance.now()
    const at = clock.now()
    let responseBody: unknown = null
    const json = c.json
    // Keep the object the handler answers, instead of re-reading the response stream.
    c.json = ((object: unknown, ...rest: unknown[]) => {
      responseBody = object
      return (json as (...a: unknown[]) => Response)(object, ...rest)
    }) as typeof c.json
    await next()
    const status = c.res.status
    // The body was read by the handler (or is read now, while it is still small enough).
    const requestBody = status === 413 || c.req.method === 'GET' ? null : await c.req.text().catch(() => null)
    const url = c.req.url
    const q = url.indexOf('?')
    deps.journal.record({
      at,
      method: c.req.method,
      path: c.req.path,
      query: q < 0 ? '' : url.slice(q),
      status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      companyId: c.get('principal')?.company.id ?? null,
      // Node's own parsed headers, kept as they are; the journal redacts when it is read.
      headers: allHeaders(c),
      requestBody,
      responseBody,
    })
  }
}
