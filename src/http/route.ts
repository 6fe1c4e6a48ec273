// Mounts a route declared with createRoute: the declaration goes to the OpenAPI registry (so it
// is published), the handlers to the router. Bodies are validated by our own pipeline, which
// uses the declaration's schema, because the contract's order of checks puts authentication
// between JSON parsing and schema validation.
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler, Next } from 'hono'
import type { AppEnv } from './env.js'

export type Step = (
  c: Context<AppEnv>,
  next: Next,
) => Response | undefined | Promise<Response | undefined>

export function mount(app: OpenAPIHono<AppEnv>, route: RouteConfig, ...steps: Step[]): void {
  app.openAPIRegistry.registerPath(route)
  app.on(
    route.method.toUpperCase(),
    route.path.replace(/\{(\w+)\}/g, ':$1'),
    ...(steps as [MiddlewareHandler<AppEnv>]),
  )
}
