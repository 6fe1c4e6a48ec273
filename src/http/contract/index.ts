// The contract (docs/CONTRACT.md) under /api/v1, and its OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv, HttpDeps } from '../env.js'
import { mountCompany } from './company.js'
import { mountCreateCharge } from './create-charge.js'
import { mountCreateTransfer } from './create-transfer.js'
import type { Edge } from './endpoint.js'

export const CONTRACT_BASE = '/api/v1'

export function contractApp(deps: HttpDeps, edge: Edge): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>()
  app.openAPIRegistry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: 'base64 of `client_id:client_secret`.',
  })
  mountCreateCharge(app, deps, edge)
  mountCreateTransfer(app, deps, edge)
  mountCompany(app, deps, edge)
  return app
}

export function contractDocument(app: OpenAPIHono<AppEnv>, version: string) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'PIX hub API',
      version,
      description:
        'The PIX collection-and-transfer contract, as served by pix-sandbox. Money is integer cents.',
    },
    // Relative, so it resolves against the address the document was read from: /docs works
    // whichever host it was opened on (an absolute localhost URL failed at 127.0.0.1, cross-origin).
    servers: [{ url: CONTRACT_BASE }],
  })
}
