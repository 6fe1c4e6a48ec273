// Webhook deliveries: every attempt of every message, and sending one again.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { AppError } from '../../domain/errors.js'
import { decodeCursor, pageOf } from '../../store/paging.js'
import { DELIVERY_STATUSES, type Delivery } from '../../store/webhooks.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { DELIVERY_EXAMPLE, DeliveryRecord, deliveryRecord } from './records/delivery.js'
import { CHARGE_PAID_DELIVERY_EXAMPLE, RETRIED_DELIVERY_EXAMPLE } from './records/story.js'
import { idParam, jsonAnswer, page } from './schemas.js'
import { visibleTo } from './scope.js'

export function mountWebhookDeliveries(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const { store } = deps.sandbox
  const deliveryView = (d: Delivery) => deliveryRecord(store.webhooks, d)

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/webhooks/deliveries',
      tags: ['Webhooks'],
      summary: 'Deliveries with every attempt, newest first',
      request: {
        query: z
          .object({
            webhook_id: z
              .string()
              .optional()
              .openapi({ description: "Only this subscription's deliveries." }),
            status: z
              .enum(DELIVERY_STATUSES)
              .optional()
              .openapi({ description: 'Only deliveries in this state.' }),
            limit: z.coerce.number().int().min(1).max(500).default(50),
            cursor: z.string().optional(),
          })
          .strict(),
      },
      responses: {
        200: jsonAnswer(
          'A page of deliveries.',
          page(DeliveryRecord, DELIVERY_EXAMPLE, CHARGE_PAID_DELIVERY_EXAMPLE),
        ),
      },
    }),
    'scoped',
    (c, { query: q }) => {
      const rows = store.webhooks.deliveries({
        companyId: c.get('scope').companyId,
        webhookId: q.webhook_id,
        status: q.status,
        limit: q.limit + 1,
        before: q.cursor === undefined ? undefined : (decodeCursor(q.cursor) ?? 0),
      })
      const result = pageOf(rows, q.limit, (d) => d.seq, deliveryView)
      return c.json({ data: result.data, next_cursor: result.nextCursor }, 200)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/webhooks/deliveries/{delivery_id}/retry',
      tags: ['Webhooks'],
      summary: 'Send a delivery again now, whatever its state',
      request: { params: idParam('delivery_id', DELIVERY_EXAMPLE.id) },
      responses: {
        200: jsonAnswer('The delivery after the new attempt.', DeliveryRecord, {
          retried: { summary: 'Sent again, answered 204', value: RETRIED_DELIVERY_EXAMPLE },
        }),
      },
    }),
    'scoped',
    async (c, { params }) => {
      const id = params.delivery_id
      const d = visibleTo(c.get('scope'), store.webhooks.delivery(id), 'Delivery')
      const sub = store.webhooks.get(d.webhookId)
      if (sub?.disabledAt != null)
        throw new AppError('conflict', `Webhook is disabled: ${sub.disabledReason}`)
      deps.webhooks.retryNow(id)
      await deps.webhooks.deliver(id)
      return c.json(deliveryView(store.webhooks.delivery(id)!), 200)
    },
  )
}
