// Transfers in the control plane: list, read, settle a pending one.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { SETTLED_STATUSES, TRANSFER_STATUSES } from '../../domain/enums.js'
import { settleTransferNow } from '../../operations/settle-transfer.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { SETTLED_TRANSFER_EXAMPLE } from './records/story.js'
import { TRANSFER_EXAMPLE, TransferRecord, transferRecord } from './records/transfer.js'
import { idParam, jsonAnswer, jsonBody, listQuery, page } from './schemas.js'
import { companyFilter, visibleTo } from './scope.js'

const params = idParam('transaction_id', TRANSFER_EXAMPLE.transaction_id)
const one = { 200: jsonAnswer('The transfer.', TransferRecord) }

export function mountTransfers(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const visible = (scope: AppEnv['Variables']['scope'], id: string) =>
    visibleTo(scope, ctx.store.transfers.byId(id), 'Transfer')

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/transfers',
      summary: 'List transfers, newest first',
      request: { query: listQuery.extend({ status: z.enum(TRANSFER_STATUSES).optional() }) },
      responses: {
        200: jsonAnswer('A page of transfers.', page(TransferRecord, TRANSFER_EXAMPLE)),
      },
    }),
    'scoped',
    (c, { query: q }) => {
      const result = ctx.store.transfers.list({
        ...q,
        companyId: companyFilter(c.get('scope'), q.company_id),
      })
      return c.json({ data: result.data.map(transferRecord), next_cursor: result.nextCursor }, 200)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/transfers/{transaction_id}',
      summary: 'Read a transfer',
      request: { params },
      responses: one,
    }),
    'scoped',
    (c, { params }) => c.json(transferRecord(visible(c.get('scope'), params.transaction_id)), 200),
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/transfers/{transaction_id}/settle',
      summary: 'Settle a pending transfer',
      description: '`failed` refunds the amount with a reversing ledger entry. 409 unless pending.',
      request: {
        params: idParam('transaction_id', SETTLED_TRANSFER_EXAMPLE.transaction_id),
        body: jsonBody(
          z
            .object({
              status: z
                .enum(SETTLED_STATUSES)
                .openapi({ description: 'What it settles as; failed refunds.' }),
              message: z.string().min(1).max(200).optional().openapi({
                description: "The message it settles with (default: the status's own).",
              }),
            })
            .strict()
            .openapi({ example: { status: 'success' } }),
        ),
      },
      responses: {
        200: jsonAnswer('The transfer.', TransferRecord, {
          settled: {
            summary: 'A pending transfer of the story, settled',
            value: SETTLED_TRANSFER_EXAMPLE,
          },
        }),
      },
    }),
    'scoped',
    (c, { params: p, body }) => {
      const transfer = visible(c.get('scope'), p.transaction_id)
      return c.json(transferRecord(settleTransferNow(ctx, transfer.id, body.status, body.message)))
    },
  )
}
