// The control plane (Part B) under /_sandbox, and its own OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv, HttpDeps } from '../env.js'
import { mountHealth } from './health.js'

export const SANDBOX_BASE = '/_sandbox'

export function sandboxApp(deps: HttpDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>()
  mountHealth(app, deps)
  return app
}

export function sandboxDocument(app: OpenAPIHono<AppEnv>, serverUrl: string, version: string) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'pix-sandbox control plane',
      version,
      description: 'Drive the sandbox: reset, scenarios, tenants, payments, clock, faults, journal.',
    },
    servers: [{ url: `${serverUrl}${SANDBOX_BASE}` }],
  })
}
