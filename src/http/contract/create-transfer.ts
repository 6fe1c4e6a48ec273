// POST /hub/transactions/out: send a transfer to a PIX key (docs/CONTRACT.md#where-the-contract-is-silent).
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi'
import { assertProvider } from '../../domain/access.js'
import { AppError } from '../../domain/errors.js'
import { TRANSFER_STATUSES } from '../../domain/enums.js'
import type { TransferOutcome } from '../../domain/types.js'
import { createTransfer } from '../../operations/create-transfer.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { header } from '../headers.js'
import { mount } from '../route.js'
import { contractEndpoint, type Edge } from './endpoint.js'
import { errorResponses } from './responses.js'
import { LAX_INT_FIELDS, TransferRequest, TransferResponse } from './schemas.js'

export const OUTCOME_HEADER = 'x-sandbox-outcome'

export const createTransferRoute = createRoute({
  method: 'post',
  path: '/hub/transactions/out',
  tags: ['Transactions'],
  summary: 'Send a transfer (PIX cash-out)',
  description: "Sends money from the user's balance to a PIX key.",
  security: [{ basicAuth: [] }],
  request: {
    body: { required: true, content: { 'application/json': { schema: TransferRequest } } },
  },
  responses: {
    200: {
      description: 'The transfer was recorded with its status.',
      content: { 'application/json': { schema: TransferResponse } },
    },
    ...errorResponses([401, 403, 422, 501], ['insufficient_balance']),
  },
})

/** The outcome a test suite picked per request; ignored unless the scenario honours the header. */
function headerOutcome(value: string | undefined, honoured: boolean): TransferOutcome | undefined {
  if (!honoured || value === undefined) return undefined
  const status = value.trim().toLowerCase()
  if (!(TRANSFER_STATUSES as readonly string[]).includes(status)) {
    throw new AppError(
      'invalid_input',
      `X-Sandbox-Outcome: must be one of ${TRANSFER_STATUSES.join(', ')}`,
    )
  }
  return { status: status as TransferOutcome['status'] }
}

export function mountCreateTransfer(app: OpenAPIHono<AppEnv>, deps: HttpDeps, edge: Edge): void {
  const body = { schema: TransferRequest, laxIntFields: LAX_INT_FIELDS }
  const handler = contractEndpoint(deps, edge, {
    op: 'transfer',
    body,
    handle: (c, who, input) => {
      assertProvider(who, 'transfer')
      const request = input as z.output<typeof TransferRequest>
      const settings = deps.sandbox.store.setup.settings()
      const transfer = createTransfer(deps.sandbox, who, {
        amount: request.amount,
        pixKey: request.pix_key,
        pixType: request.pix_type,
        description: request.description,
        headerOutcome: headerOutcome(header(c, OUTCOME_HEADER), settings.outcome_header),
      })
      return c.json(
        { status: transfer.status, transaction_id: transfer.id, message: transfer.message },
        200,
      )
    },
  })
  mount(app, createTransferRoute, handler)
}
