// createApp: the whole HTTP application from injected parts. No module-level state.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler, RouterRoute } from 'hono/types'
import { contractApp, contractDocument, CONTRACT_BASE } from './http/contract/index.js'
import { mountDocs } from './http/docs.js'
import type { AppEnv, HttpDeps } from './http/env.js'
import { refuseLargeBody } from './http/body-limit.js'
import { createErrorHandler } from './http/errors.js'
import { createFallback } from './http/fallback.js'
import { journal } from './http/journal.js'
import { mountLocation } from './http/location.js'
import { PrefixRouter } from './http/prefix-router.js'
import type { LocationSigner } from './pix/location.js'
import { sandboxApp, sandboxDocument, SANDBOX_BASE } from './http/sandbox/index.js'
import { createUi, UI_BASE } from './ui/index.js'

export const MAX_BODY_BYTES = 1024 * 1024

export function createApp(deps: HttpDeps & { publicUrl: () => string }, signer: LocationSigner) {
  const router = new PrefixRouter<[MiddlewareHandler<AppEnv>, RouterRoute]>(CONTRACT_BASE)
  const app = new OpenAPIHono<AppEnv>({ router })
  const fallback = createFallback(() => app.routes)
  const onError = createErrorHandler(deps.log)
  // The journal and the edge rules are one middleware, as each async layer costs every request.
  // Errors of the rules are answered here, inside the journaled span, so they are journaled.
  app.use(
    journal(deps, async (c, next) => {
      try {
        const refused = fallback.refuseImplicitHead(c, CONTRACT_BASE) ?? (await refuseLargeBody(c, MAX_BODY_BYTES))
        if (refused) return refused
        await next()
        // Answers wait for the commit of what they wrote (group commit: see store/transactions.ts).
        const commit = deps.sandbox.store.pendingCommit()
        if (commit) await commit
      } catch (err) {
        return onError(err as Error, c)
      }
    }),
  )

  const contract = contractApp(deps)
  const sandbox = sandboxApp(deps)
  app.route(CONTRACT_BASE, contract)
  app.route(SANDBOX_BASE, sandbox)
  // The dashboard: HTML pages on a plain router, so neither OpenAPI document lists them.
  app.route(UI_BASE, createUi(deps, onError))

  // Built on first request and kept: the routes never change after start.
  let contractDoc: unknown
  let sandboxDoc: unknown
  app.get('/openapi.json', (c) => c.json((contractDoc ??= contractDocument(contract, deps.version))))
  app.get(`${SANDBOX_BASE}/openapi.json`, (c) => c.json((sandboxDoc ??= sandboxDocument(sandbox, deps.version))))
  mountLocation(app, deps, signer)
  mountDocs(app, [
    { name: 'Contract (/api/v1)', url: '/openapi.json' },
    { name: 'Control plane (/_sandbox)', url: `${SANDBOX_BASE}/openapi.json` },
  ])

  app.notFound(fallback.notFound)
  app.onError(onError)
  return app
}
