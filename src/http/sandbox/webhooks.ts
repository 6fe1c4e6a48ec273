// Outbound webhooks (Part D): subscriptions, deliveries with every attempt, retries, test
// messages and chaos.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { AppError } from '../../domain/errors.js'
import { isoMicros } from '../../domain/time.js'
import { queueTestMessage, setChaos, subscribe, unsubscribe } from '../../operations/webhooks.js'
import type { Delivery, Subscription } from '../../store/webhooks.js'
import { hostRefusal } from '../../webhooks/allowed-hosts.js'
import { MAX_SECRET_LENGTH, MAX_SUBSCRIPTIONS, MAX_URL_LENGTH } from '../../webhooks/limits.js'
import { WEBHOOK_EVENTS } from '../../webhooks/outbox.js'
import { isValidSecret } from '../../webhooks/sign.js'
import type { AppEnv, HttpDeps, Scope } from '../env.js'
import { controlRoute } from './control-route.js'
import { DeliveryView, mountWebhookDeliveries } from './webhook-deliveries.js'
import { idParam, listQuery, page } from './schemas.js'
import { companyFilter, visibleTo } from './scope.js'

const probability = z.number().min(0).max(1)
const ChaosBody = z
  .object({ drop: probability.optional(), duplicate: probability.optional(), bad_signature: probability.optional(), delay_ms: z.int().min(0).max(60_000).optional(), reorder: z.boolean().optional() })
  .strict()
  .openapi('WebhookChaos')
const NewWebhook = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .max(WEBHOOK_EVENTS.length, `must list each event at most once (${WEBHOOK_EVENTS.length} events)`)
      .refine((e) => new Set(e).size === e.length, 'must list each event at most once')
      .optional(),
    format: z.enum(['standard', 'bcb']).default('standard'),
    secret: z
      .string()
      .max(MAX_SECRET_LENGTH, `must be at most ${MAX_SECRET_LENGTH} characters`)
      .refine(isValidSecret, 'must be whsec_ followed by at least 16 bytes in base64')
      .optional(),
    company_id: z.string().max(200).optional(),
  })
  .strict()
  .openapi('NewWebhook')
const WebhookView = z
  .object({ id: z.string(), company_id: z.string().nullable(), url: z.string(), events: z.array(z.string()), format: z.string(), secret: z.string(), chaos: ChaosBody.nullable(), disabled_at: z.string().nullable(), disabled_reason: z.string().nullable(), created_at: z.string() })
  .openapi('Webhook')

const view = (s: Subscription) => ({
  id: s.id,
  company_id: s.companyId,
  url: s.url,
  events: s.events,
  format: s.format,
  secret: s.secret,
  chaos: s.chaos,
  disabled_at: s.disabledAt === null ? null : isoMicros(s.disabledAt),
  disabled_reason: s.disabledReason,
  created_at: isoMicros(s.createdAt),
})

export function mountWebhooks(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const { store } = ctx
  const visible = (scope: Scope, id: string) => visibleTo(scope, store.webhooks.get(id), 'Webhook')
  const deliveryView = (d: Delivery) => ({
    id: d.id,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event_type: d.eventType,
    company_id: d.companyId,
    status: d.status,
    next_attempt_at: d.nextAttemptAt === null ? null : isoMicros(d.nextAttemptAt),
    created_at: isoMicros(d.createdAt),
    delivered_at: d.deliveredAt === null ? null : isoMicros(d.deliveredAt),
    last_error: d.lastError,
    body: JSON.parse(d.body),
    attempts: store.webhooks.attempts(d.id).map((a) => ({ at: isoMicros(a.at), status_code: a.statusCode, latency_ms: a.latencyMs, error: a.error, chaos: a.chaos, headers: a.headers })),
  })
  const one = { 200: { description: 'The subscription.', content: { 'application/json': { schema: WebhookView } } } }
  const params = idParam('webhook_id')

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/webhooks',
      tags: ['Webhooks'],
      summary: 'Subscribe a URL to events',
      description: `At most ${MAX_SUBSCRIPTIONS} subscriptions per company (the admin's global ones have their own ${MAX_SUBSCRIPTIONS}); \`url\` at most ${MAX_URL_LENGTH} characters. Events: ${WEBHOOK_EVENTS.join(', ')} (default all). \`standard\` signs with Standard Webhooks; \`bcb\` posts \`{"pix":[...]}\` to \`<url>/pix\` (charge.paid only). Without \`company_id\`, the admin token subscribes to every company.`,
      request: { body: { required: true, content: { 'application/json': { schema: NewWebhook } } } },
      responses: { 201: { description: 'Subscribed; keep the secret to verify signatures.', content: { 'application/json': { schema: WebhookView } } } },
    }),
    'scoped',
    (c) => {
      const b = c.get('input').body
      const scope = c.get('scope')
      const refused = hostRefusal(b.url, deps.webhookAllowedHosts)
      if (refused) throw new AppError('invalid_input', `url: ${refused}`)
      const companyId = scope.admin ? (b.company_id ?? null) : companyFilter(scope, b.company_id)!
      return c.json(view(subscribe(ctx, { url: b.url, events: b.events, format: b.format, secret: b.secret, companyId })), 201)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/webhooks',
      tags: ['Webhooks'],
      summary: 'List subscriptions, oldest first',
      request: { query: listQuery.extend({ status: z.enum(['active', 'disabled']).optional() }) },
      responses: { 200: { description: 'A page of subscriptions.', content: { 'application/json': { schema: page(WebhookView) } } } },
    }),
    'scoped',
    (c) => {
      const q = c.get('input').query
      const result = store.webhooks.list({ ...q, companyId: companyFilter(c.get('scope'), q.company_id) })
      return c.json({ data: result.data.map(view), next_cursor: result.nextCursor })
    },
  )

  // Before /webhooks/{webhook_id}, which would otherwise take "deliveries" for an id.
  mountWebhookDeliveries(app, deps, deliveryView)

  controlRoute(
    app,
    deps,
    createRoute({ method: 'get', path: '/webhooks/{webhook_id}', tags: ['Webhooks'], summary: 'Read a subscription', request: { params }, responses: one }),
    'scoped',
    (c) => c.json(view(visible(c.get('scope'), c.get('input').params.webhook_id))),
  )

  controlRoute(
    app,
    deps,
    createRoute({ method: 'delete', path: '/webhooks/{webhook_id}', tags: ['Webhooks'], summary: 'Unsubscribe (pending deliveries are dropped)', request: { params }, responses: { 204: { description: 'Removed.' } } }),
    'scoped',
    (c) => {
      unsubscribe(ctx, visible(c.get('scope'), c.get('input').params.webhook_id).id)
      return c.body(null, 204)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/webhooks/{webhook_id}/test',
      tags: ['Webhooks'],
      summary: 'Send a webhook.test message now',
      request: { params },
      responses: { 200: { description: 'The delivery after its first attempt.', content: { 'application/json': { schema: DeliveryView } } } },
    }),
    'scoped',
    async (c) => {
      const sub = visible(c.get('scope'), c.get('input').params.webhook_id)
      const id = queueTestMessage(ctx, sub.id)
      await deps.webhooks.deliver(id)
      return c.json(deliveryView(store.webhooks.delivery(id)!))
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'put',
      path: '/webhooks/{webhook_id}/chaos',
      tags: ['Webhooks'],
      summary: 'Misbehave on purpose: drop, duplicate, bad signature, delay, reorder',
      description: '`drop`, `duplicate` and `bad_signature` are probabilities per attempt (0..1); `reorder` holds messages 2 s (virtual) and sends them newest first. Deterministic under SEED.',
      request: { params, body: { required: true, content: { 'application/json': { schema: ChaosBody } } } },
      responses: one,
    }),
    'scoped',
    (c) => {
      const { params: p, body } = c.get('input')
      return c.json(view(setChaos(ctx, visible(c.get('scope'), p.webhook_id).id, body)))
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({ method: 'delete', path: '/webhooks/{webhook_id}/chaos', tags: ['Webhooks'], summary: 'Behave again', request: { params }, responses: { 204: { description: 'Cleared.' } } }),
    'scoped',
    (c) => {
      setChaos(ctx, visible(c.get('scope'), c.get('input').params.webhook_id).id, null)
      return c.body(null, 204)
    },
  )
}
