// Charges in the control plane: list, read, pay (through the provider-webhook path), expire, cancel.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { CHARGE_STATUSES } from '../../domain/enums.js'
import { cancelCharge } from '../../operations/charge-transitions.js'
import { payChargeAsBank } from '../../operations/receive-pix.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { CHARGE_EXAMPLE, ChargeRecord, chargeRecord } from './records/charge.js'
import { CANCELLED_CHARGE_EXAMPLE, EXPIRED_CHARGE_EXAMPLE } from './records/story.js'
import { idParam, jsonAnswer, jsonBody, listQuery, page, Payer } from './schemas.js'
import { companyFilter, visibleTo } from './scope.js'

const params = idParam('transaction_id', CHARGE_EXAMPLE.transaction_id)
const one = { 200: jsonAnswer('The charge.', ChargeRecord) }

export function mountCharges(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const visible = (scope: AppEnv['Variables']['scope'], id: string) =>
    visibleTo(scope, ctx.store.charges.byId(id), 'Charge')

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/charges',
      summary: 'List charges, newest first',
      request: { query: listQuery.extend({ status: z.enum(CHARGE_STATUSES).optional() }) },
      responses: { 200: jsonAnswer('A page of charges.', page(ChargeRecord, CHARGE_EXAMPLE)) },
    }),
    'scoped',
    (c, { query: q }) => {
      const result = ctx.store.charges.list({
        ...q,
        companyId: companyFilter(c.get('scope'), q.company_id),
      })
      return c.json(
        { data: result.data.map((ch) => chargeRecord(ctx, ch)), next_cursor: result.nextCursor },
        200,
      )
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/charges/{transaction_id}',
      summary: 'Read a charge',
      request: { params },
      responses: one,
    }),
    'scoped',
    (c, { params }) =>
      c.json(chargeRecord(ctx, visible(c.get('scope'), params.transaction_id)), 200),
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/charges/{transaction_id}/pay',
      summary: 'Confirm the payment of a pending charge',
      description:
        'Goes through the provider-webhook path: `paid`, balance credited. 409 unless pending.',
      request: {
        params,
        body: jsonBody(
          z
            .object({
              payer: Payer.optional().openapi({
                description: 'Who pays (default: a generated payer).',
              }),
            })
            .strict()
            .openapi({ example: { payer: { name: 'Maria Souza', document: '52998224725' } } }),
          false,
        ),
      },
      responses: one,
    }),
    'scoped',
    async (c, { params: p, body }) => {
      const charge = visible(c.get('scope'), p.transaction_id)
      await ctx.fakes.ready()
      const result = payChargeAsBank(ctx, charge.id, body.payer ?? ctx.fakes.payer())
      return c.json(chargeRecord(ctx, result.charge), 200)
    },
  )

  for (const [action, reason, example] of [
    ['expire', 'expired', EXPIRED_CHARGE_EXAMPLE],
    ['cancel', 'cancelled', CANCELLED_CHARGE_EXAMPLE],
  ] as const) {
    controlRoute(
      app,
      deps,
      createRoute({
        method: 'post',
        path: `/charges/{transaction_id}/${action}`,
        summary: action === 'expire' ? 'Expire a pending charge now' : 'Cancel a pending charge',
        description: `\`cancelled\` with reason \`${reason}\`. 409 unless pending.`,
        request: { params: idParam('transaction_id', example.transaction_id) },
        responses: {
          200: jsonAnswer('The charge.', ChargeRecord, {
            [reason]: { summary: `A charge of the story, ${reason}`, value: example },
          }),
        },
      }),
      'scoped',
      (c, { params }) => {
        const charge = visible(c.get('scope'), params.transaction_id)
        return c.json(chargeRecord(ctx, cancelCharge(ctx, charge.id, reason)), 200)
      },
    )
  }
}
