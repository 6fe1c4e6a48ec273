// The control plane (docs/CONTROL-PLANE.md) under /_sandbox, and its own OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv, HttpDeps } from '../env.js'
import { mountCharges } from './charges.js'
import { mountClock } from './clock.js'
import { mountCompanies } from './companies.js'
import { mountHealth } from './health.js'
import { mountObserve } from './observe.js'
import { mountPay } from './pay.js'
import { mountQueues } from './queues.js'
import { mountReadiness } from './readiness.js'
import { mountScenarioInForce } from './scenario-in-force.js'
import { mountScenarios } from './scenarios.js'
import { mountTenants } from './tenants.js'
import { mountTransfers } from './transfers.js'
import { mountWebhooks } from './webhooks.js'

export const SANDBOX_BASE = '/_sandbox'

export function sandboxApp(deps: HttpDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>()
  app.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'SANDBOX_ADMIN_TOKEN (printed at start when generated): full access.',
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: "A company's own credentials: that company only.",
  })
  for (const mount of [
    mountHealth,
    mountObserve,
    mountScenarios,
    mountScenarioInForce,
    mountCompanies,
    mountTenants,
    mountCharges,
    mountPay,
    mountTransfers,
    mountQueues,
    mountClock,
    mountWebhooks,
    mountReadiness,
  ]) {
    mount(app, deps)
  }
  return app
}

export function sandboxDocument(app: OpenAPIHono<AppEnv>, version: string) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'pix-sandbox control plane',
      version,
      description:
        'Drive the sandbox: reset, scenarios, tenants, payments, clock, faults, journal, readiness.',
    },
    // Relative, so it resolves against the address the document was read from: /docs works
    // whichever host it was opened on (an absolute localhost URL failed at 127.0.0.1, cross-origin).
    servers: [{ url: SANDBOX_BASE }],
  })
}
