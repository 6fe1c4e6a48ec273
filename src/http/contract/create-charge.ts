// POST /hub/transactions/in: create a charge and its dynamic BR Code (A5).
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi'
import { assertProvider } from '../../domain/access.js'
import { localDateTime } from '../../domain/time.js'
import { createCharge } from '../../operations/create-charge.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { mount } from '../route.js'
import { contractChecks } from './pipeline.js'
import { errorResponses } from './responses.js'
import { ChargeRequest, ChargeResponse, LAX_INT_FIELDS } from './schemas.js'

export const createChargeRoute = createRoute({
  method: 'post',
  path: '/hub/transactions/in',
  tags: ['Transactions'],
  summary: 'Create a charge (PIX cash-in)',
  description: 'Creates a pending charge and returns its BR Code "copia e cola".',
  security: [{ basicAuth: [] }],
  request: { body: { required: true, content: { 'application/json': { schema: ChargeRequest } } } },
  responses: {
    200: { description: 'The charge was created.', content: { 'application/json': { schema: ChargeResponse } } },
    ...errorResponses(401, 403, 422, 501),
  },
})

export function mountCreateCharge(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  mount(app, createChargeRoute, contractChecks(deps, 'charge', { schema: ChargeRequest, laxIntFields: LAX_INT_FIELDS }), (c) => {
    const who = c.get('principal')
    assertProvider(who, 'charge')
    const body = c.get('body') as z.output<typeof ChargeRequest>
    const charge = createCharge(deps.sandbox, who, body)
    return c.json({
      status: charge.status,
      transaction_id: charge.id,
      qr_code: charge.qrCode,
      qr_code_name: charge.qrCodeName,
      expiration_date: localDateTime(charge.expiresAt, deps.sandbox.store.setup.settings().timezone),
    }, 200)
  })
}
