// createApp: the whole HTTP application from injected parts. No module-level state.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { MiddlewareHandler, RouterRoute } from 'hono/types'
import { contractApp, contractDocument, CONTRACT_BASE } from './http/contract/index.js'
import { mountDocs } from './http/docs.js'
import { mountFavicon } from './http/favicon.js'
import type { AppEnv, HttpDeps } from './http/env.js'
import { MAX_BODY_BYTES, refuseLargeBody } from './http/body-limit.js'
import { credentialsOwner } from './http/body-owner.js'
import { createErrorHandler } from './http/errors.js'
import { createFallback } from './http/fallback.js'
import { createJournaling, journal } from './http/journal.js'
import { mountLocation } from './http/location.js'
import { PrefixRouter } from './http/prefix-router.js'
import { turnEnd } from './http/turn-end.js'
import { routePath } from './http/uvicorn/path.js'
import type { LocationSigner } from './pix/location.js'
import { sandboxApp, sandboxDocument, SANDBOX_BASE } from './http/sandbox/index.js'
import { createUi, UI_BASE } from './ui/index.js'

export function createApp(deps: HttpDeps & { publicUrl: () => string }, signer: LocationSigner) {
  const journaling = createJournaling(deps)
  const onError = createErrorHandler(deps.log)
  // Filled once the app exists: the fallback reads the app's routes.
  let fallback!: ReturnType<typeof createFallback>
  const ownerOf = credentialsOwner(deps)
  // The journal and the edge rules are one middleware, as each async layer costs every request.
  // Errors of the rules are answered here, inside the journaled span, so they are journaled.
  const edgeMiddleware = journal(journaling, async (c, next) => {
    try {
      const refused =
        fallback.refuseImplicitHead(c, CONTRACT_BASE) ??
        (await refuseLargeBody(c, MAX_BODY_BYTES, ownerOf))
      if (refused) return refused
      await next()
      // Answers wait for the commit of what they wrote (group commit: see store/transactions.ts).
      const commit = deps.sandbox.store.pendingCommit()
      if (commit) await commit
    } catch (err) {
      return onError(err as Error, c)
    }
  })
  // The contract's routes journal themselves (contract/endpoint.ts): the middleware stays out of
  // their router, so each of them is a lone handler.
  const router = new PrefixRouter<[MiddlewareHandler<AppEnv>, RouterRoute]>(
    CONTRACT_BASE,
    ([handler]) => handler === edgeMiddleware,
  )
  // Routed on the path uvicorn would route on (`%2F` decoded, dot segments kept): uvicorn/path.ts.
  const app = new OpenAPIHono<AppEnv>({ router, getPath: routePath })
  fallback = createFallback(() => app.routes)
  app.use(edgeMiddleware)

  const edge = {
    journaling,
    onError,
    refuseImplicitHead: (c: Context) => fallback.refuseImplicitHead(c, CONTRACT_BASE),
    turnEnd: turnEnd(),
  }
  const contract = contractApp(deps, edge)
  const sandbox = sandboxApp(deps)
  app.route(CONTRACT_BASE, contract)
  app.route(SANDBOX_BASE, sandbox)
  // The dashboard: HTML pages on a plain router, so neither OpenAPI document lists them. What it
  // does (a button, a form) is asked of this app, so it is journaled as the same curl would be.
  app.route(
    UI_BASE,
    createUi(deps, onError, (path, init, env) => app.request(path, init, env)),
  )

  // Built on first request and kept: the routes never change after start.
  let contractDoc: unknown
  let sandboxDoc: unknown
  app.get('/openapi.json', (c) =>
    c.json((contractDoc ??= contractDocument(contract, deps.version))),
  )
  app.get(`${SANDBOX_BASE}/openapi.json`, (c) =>
    c.json((sandboxDoc ??= sandboxDocument(sandbox, deps.version))),
  )
  mountLocation(app, deps, signer)
  mountFavicon(app)
  mountDocs(app, [
    { name: 'Contract (/api/v1)', url: '/openapi.json' },
    { name: 'Control plane (/_sandbox)', url: `${SANDBOX_BASE}/openapi.json` },
  ])

  app.notFound(fallback.notFound)
  app.onError(onError)
  return app
}
