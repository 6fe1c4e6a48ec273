// Outbound webhooks (docs/WEBHOOKS.md): subscriptions, deliveries with every attempt, retries, test
// messages and chaos.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { AppError } from '../../domain/errors.js'
import { queueTestMessage, setChaos, subscribe, unsubscribe } from '../../operations/webhooks.js'
import { hostRefusal } from '../../webhooks/allowed-hosts.js'
import { checkReceiverTimed } from '../../webhooks/check.js'
import { isoMillis } from '../../domain/time.js'
import { MAX_SECRET_LENGTH, MAX_SUBSCRIPTIONS, MAX_URL_LENGTH } from '../../webhooks/limits.js'
import { chaosSchema, WEBHOOK_EVENTS } from '../../webhooks/schema.js'
import { isValidSecret } from '../../webhooks/sign.js'
import type { AppEnv, HttpDeps, Scope } from '../env.js'
import { controlRoute, noContent } from './control-route.js'
import { DeliveryRecord, deliveryRecord } from './records/delivery.js'
import { ReceiverCheck, receiverCheckRecord } from './records/receiver-check.js'
import { WEBHOOK_EXAMPLE, WebhookRecord, webhookRecord } from './records/webhook.js'
import { mountWebhookDeliveries } from './webhook-deliveries.js'
import { idParam, jsonAnswer, jsonBody, listQuery, page } from './schemas.js'
import { companyFilter, visibleTo } from './scope.js'

const hasUserInfo = (u: URL) => u.username !== '' || u.password !== ''

const NewWebhook = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
      // fetch refuses such a URL, so it could never be sent; and every list would show the password.
      .refine(
        (u) => !URL.canParse(u) || !hasUserInfo(new URL(u)),
        'must not contain a user or password (user:password@)',
      )
      .openapi({
        description:
          'Where to POST deliveries (the bcb format posts to `<url>/pix`); no `user:password@`.',
      }),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .max(
        WEBHOOK_EVENTS.length,
        `must list each event at most once (${WEBHOOK_EVENTS.length} events)`,
      )
      .refine((e) => new Set(e).size === e.length, 'must list each event at most once')
      .optional()
      .openapi({ description: 'The event types to receive (default: all).' }),
    format: z.enum(['standard', 'bcb']).default('standard').openapi({
      description:
        'standard: Standard Webhooks, signed; bcb: the BCB API Pix body, charge.paid only.',
    }),
    secret: z
      .string()
      .max(MAX_SECRET_LENGTH, `must be at most ${MAX_SECRET_LENGTH} characters`)
      .refine(isValidSecret, 'must be whsec_ followed by at least 16 bytes in base64')
      .optional()
      .openapi({ description: 'The signing secret (default: a generated one).' }),
    company_id: z
      .string()
      .max(200)
      .optional()
      .openapi({ description: "Admin token only: whose events (default: every company's)." }),
  })
  .strict()
  .openapi('NewWebhook', {
    example: {
      url: 'http://127.0.0.1:3000/webhooks/pix',
      events: ['charge.paid', 'transfer.failed'],
    },
  })

export function mountWebhooks(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const { store } = ctx
  const visible = (scope: Scope, id: string) => visibleTo(scope, store.webhooks.get(id), 'Webhook')
  const one = { 200: jsonAnswer('The subscription.', WebhookRecord) }
  const params = idParam('webhook_id', WEBHOOK_EXAMPLE.id)

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/webhooks',
      tags: ['Webhooks'],
      summary: 'Subscribe a URL to events',
      description: `At most ${MAX_SUBSCRIPTIONS} subscriptions per company (the admin's global ones have their own ${MAX_SUBSCRIPTIONS}); \`url\` at most ${MAX_URL_LENGTH} characters. Events: ${WEBHOOK_EVENTS.join(', ')} (default all). \`standard\` signs with Standard Webhooks; \`bcb\` posts \`{"pix":[...]}\` to \`<url>/pix\` (charge.paid only). Without \`company_id\`, the admin token subscribes to every company.`,
      request: { body: jsonBody(NewWebhook) },
      responses: {
        201: jsonAnswer('Subscribed; keep the secret to verify signatures.', WebhookRecord),
      },
    }),
    'scoped',
    (c, { body: b }) => {
      const scope = c.get('scope')
      const refused = hostRefusal(b.url, deps.webhookAllowedHosts)
      if (refused) throw new AppError('invalid_input', `url: ${refused}`)
      const companyId = scope.admin ? (b.company_id ?? null) : companyFilter(scope, b.company_id)!
      return c.json(
        webhookRecord(
          subscribe(ctx, {
            url: b.url,
            events: b.events,
            format: b.format,
            secret: b.secret,
            companyId,
          }),
        ),
        201,
      )
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
      request: {
        query: listQuery.extend({
          status: z
            .enum(['active', 'disabled'])
            .optional()
            .openapi({ description: 'Only active or only disabled subscriptions.' }),
        }),
      },
      responses: {
        200: jsonAnswer('A page of subscriptions.', page(WebhookRecord, WEBHOOK_EXAMPLE)),
      },
    }),
    'scoped',
    (c, { query: q }) => {
      const result = store.webhooks.list({
        ...q,
        companyId: companyFilter(c.get('scope'), q.company_id),
      })
      return c.json({ data: result.data.map(webhookRecord), next_cursor: result.nextCursor }, 200)
    },
  )

  // Before /webhooks/{webhook_id}, which would otherwise take "deliveries" for an id.
  mountWebhookDeliveries(app, deps)

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/webhooks/{webhook_id}',
      tags: ['Webhooks'],
      summary: 'Read a subscription',
      request: { params },
      responses: one,
    }),
    'scoped',
    (c, { params }) => c.json(webhookRecord(visible(c.get('scope'), params.webhook_id)), 200),
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'delete',
      path: '/webhooks/{webhook_id}',
      tags: ['Webhooks'],
      summary: 'Unsubscribe (pending deliveries are dropped)',
      request: { params },
      responses: { 204: { description: 'Removed.' } },
    }),
    'scoped',
    (c, { params }) => {
      unsubscribe(ctx, visible(c.get('scope'), params.webhook_id).id)
      return noContent(c)
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
      responses: { 200: jsonAnswer('The delivery after its first attempt.', DeliveryRecord) },
    }),
    'scoped',
    async (c, { params }) => {
      const sub = visible(c.get('scope'), params.webhook_id)
      const id = queueTestMessage(ctx, sub.id)
      await deps.webhooks.deliver(id)
      return c.json(deliveryRecord(store.webhooks, store.webhooks.delivery(id)!), 200)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/webhooks/{webhook_id}/check',
      tags: ['Webhooks', 'Readiness'],
      summary:
        'Check the receiver: does it verify signatures, refuse stale timestamps, take duplicates?',
      description:
        'Sends a fixed battery of test messages (`"test": true` in `data`) to the subscription\'s own URL, signed with its secret, and answers how the receiver took each: `valid` and `duplicate` (the same webhook-id again) want 2xx, `bad_signature` and `stale_timestamp` (10 minutes old) want 4xx, `unknown_type` wants 2xx; each within 5 s. Redirects are never followed; WEBHOOK_ALLOWED_HOSTS applies. Failures become readiness findings. Standard format only: a bcb subscription answers 422.',
      request: { params },
      responses: { 200: jsonAnswer('How the receiver answered each check.', ReceiverCheck) },
    }),
    'scoped',
    async (c, { params }) => {
      const sub = visible(c.get('scope'), params.webhook_id)
      if (sub.format !== 'standard') {
        throw new AppError(
          'invalid_input',
          'format: the receiver check is for standard subscriptions; bcb deliveries are authenticated by mutual TLS, not signatures',
        )
      }
      const { check: result, stalledMs } = await checkReceiverTimed({
        url: sub.url,
        secret: sub.secret,
        userAgent: `pix-sandbox/${deps.version}`,
        companyId: sub.companyId,
        bodyTime: isoMillis(ctx.clock.now()),
        refusal: hostRefusal(sub.url, deps.webhookAllowedHosts),
        slot: () => deps.webhooks.slot(sub),
      })
      ctx.readiness?.checked(sub.companyId, sub.id, sub.url, result, stalledMs)
      return c.json(receiverCheckRecord(result), 200)
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
      description:
        '`drop`, `duplicate` and `bad_signature` are probabilities per attempt (0..1); `reorder` holds messages 2 s (virtual) and sends them newest first. Deterministic under SEED.',
      request: { params, body: jsonBody(chaosSchema.openapi({ example: { duplicate: 0.5 } })) },
      responses: {
        200: jsonAnswer('The subscription.', WebhookRecord, {
          chaos: {
            summary: 'WEBHOOK_EXAMPLE with the request example',
            value: { ...WEBHOOK_EXAMPLE, chaos: { duplicate: 0.5 } },
          },
        }),
      },
    }),
    'scoped',
    (c, { params, body }) =>
      c.json(
        webhookRecord(setChaos(ctx, visible(c.get('scope'), params.webhook_id).id, body)),
        200,
      ),
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'delete',
      path: '/webhooks/{webhook_id}/chaos',
      tags: ['Webhooks'],
      summary: 'Behave again',
      request: { params },
      responses: { 204: { description: 'Cleared.' } },
    }),
    'scoped',
    (c, { params }) => {
      setChaos(ctx, visible(c.get('scope'), params.webhook_id).id, null)
      return noContent(c)
    },
  )
}
