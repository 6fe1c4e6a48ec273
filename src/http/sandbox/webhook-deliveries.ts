// Webhook deliveries: every attempt of every message, and sending one again.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { AppError } from '../../domain/errors.js'
import { decodeCursor, pageOf } from '../../store/paging.js'
import type { Delivery } from '../../store/webhooks.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { idParam } from './schemas.js'
import { visibleTo } from './scope.js'

export const AttemptView = z
  .object({
    at: z.string(),
    status_code: z.int().nullable(),
    latency_ms: z.number().nullable(),
    error: z.string().nullable(),
    chaos: z.string().nullable(),
    headers: z
      .record(z.string(), z.string())
      .nullable()
      .openapi({
        description:
          'The request headers this attempt sent, signature included (never the secret); the HTTP client adds only transport ones (host, content-length, connection, accept, accept-encoding, accept-language, sec-fetch-mode). null when nothing was sent (dropped by chaos, host refused) and for attempts recorded before the store kept headers.',
      }),
  })
  .openapi('WebhookAttempt')

export const DeliveryView = z
  .object({ id: z.string(), webhook_id: z.string(), event_id: z.string(), event_type: z.string(), status: z.string(), attempts: z.array(AttemptView) })
  .passthrough()
  .openapi('WebhookDelivery')

export function mountWebhookDeliveries(app: OpenAPIHono<AppEnv>, deps: HttpDeps, deliveryView: (d: Delivery) => unknown): void {
  const { store } = deps.sandbox

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/webhooks/deliveries',
      tags: ['Webhooks'],
      summary: 'Deliveries with every attempt, newest first',
      request: {
        query: z.object({ webhook_id: z.string().optional(), status: z.enum(['pending', 'delivered', 'failed']).optional(), limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.string().optional() }).strict(),
      },
      responses: { 200: { description: 'A page of deliveries.', content: { 'application/json': { schema: z.object({ data: z.array(DeliveryView), next_cursor: z.string().nullable() }) } } } },
    }),
    'scoped',
    (c) => {
      const q = c.get('input').query
      const rows = store.webhooks.deliveries({
        companyId: c.get('scope').companyId,
        webhookId: q.webhook_id,
        status: q.status,
        limit: q.limit + 1,
        before: q.cursor === undefined ? undefined : (decodeCursor(q.cursor) ?? 0),
      })
      const page = pageOf(rows, q.limit, (d) => d.seq, deliveryView)
      return c.json({ data: page.data, next_cursor: page.nextCursor })
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
      request: { params: idParam('delivery_id') },
      responses: { 200: { description: 'The delivery after the new attempt.', content: { 'application/json': { schema: DeliveryView } } } },
    }),
    'scoped',
    async (c) => {
      const id = c.get('input').params.delivery_id
      const d = visibleTo(c.get('scope'), store.webhooks.delivery(id), 'Delivery')
      const sub = store.webhooks.get(d.webhookId)
      if (sub?.disabledAt != null) throw new AppError('conflict', `Webhook is disabled: ${sub.disabledReason}`)
      deps.webhooks.retryNow(id)
      await deps.webhooks.deliver(id)
      return c.json(deliveryView(store.webhooks.delivery(id)!))
    },
  )

}
