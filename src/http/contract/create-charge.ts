// POST /hub/transactions/in: create a charge and its dynamic BR Code (docs/CONTRACT.md#where-the-contract-is-silent).
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi'
import { assertProvider } from '../../domain/access.js'
import { localDateTime } from '../../domain/time.js'
import { createCharge, type NewCharge } from '../../operations/create-charge.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { mount } from '../route.js'
import { contractEndpoint, type Edge } from './endpoint.js'
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
    200: {
      description: 'The charge was created.',
      content: { 'application/json': { schema: ChargeResponse } },
    },
    ...errorResponses([401, 403, 422, 501]),
  },
})

// The parsed body is the operation's input as it is, with no copy on the hot path: a field of
// one that the other has not got (added to the schema and not to the use case) fails here.
type SameKeys<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? true
    : false
  : false
const bodyIsTheInput: SameKeys<NewCharge, z.output<typeof ChargeRequest>> = true
void bodyIsTheInput

export function mountCreateCharge(app: OpenAPIHono<AppEnv>, deps: HttpDeps, edge: Edge): void {
  const body = { schema: ChargeRequest, laxIntFields: LAX_INT_FIELDS }
  const handler = contractEndpoint(deps, edge, {
    op: 'charge',
    body,
    handle: (c, who, input) => {
      assertProvider(who, 'charge')
      const charge = createCharge(deps.sandbox, who, input as z.output<typeof ChargeRequest>)
      return c.json(
        {
          status: charge.status,
          transaction_id: charge.id,
          qr_code: charge.qrCode,
          qr_code_name: charge.qrCodeName,
          expiration_date: localDateTime(
            charge.expiresAt,
            deps.sandbox.store.setup.settings().timezone,
          ),
        },
        200,
      )
    },
  })
  mount(app, createChargeRoute, handler)
}
