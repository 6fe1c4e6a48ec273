// A webhook delivery with every attempt, as the control plane shows it: the published schema,
// and the mapper held to it.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import {
  DELIVERY_STATUSES,
  type Attempt,
  type Delivery,
  type WebhookStore,
} from '../../../store/webhooks.js'
import { iso, isoOrNull, maybeIso } from '../schemas.js'
import { VERSION } from '../../../version.js'

export const AttemptRecord = z
  .object({
    at: iso.openapi({ description: 'When the attempt was made (virtual time).' }),
    status_code: z.int().nullable().openapi({
      description:
        "The receiver's HTTP status; null when nothing was answered (dropped, refused, timed out, unreachable).",
    }),
    latency_ms: z
      .number()
      .nullable()
      .openapi({ description: 'Milliseconds until the receiver answered; null when it did not.' }),
    error: z.string().nullable().openapi({
      description:
        'Why the attempt failed, when it did (a status outside 2xx, a timeout, a refused host...).',
    }),
    chaos: z.string().nullable().openapi({
      description:
        'The chaos applied to this attempt: drop, duplicate (the extra send) or bad_signature; null when none.',
    }),
    headers: z.record(z.string(), z.string()).nullable().openapi({
      description:
        'The request headers this attempt sent, signature included (never the secret); the HTTP client adds only transport ones (host, content-length, connection, accept, accept-encoding, accept-language, sec-fetch-mode). null when nothing was sent (dropped by chaos, host refused) and for attempts recorded before the store kept headers.',
    }),
  })
  .openapi('WebhookAttempt')

/** The webhook.test message of WEBHOOK_EXAMPLE's subscription, delivered to a receiver that answered 204. */
export const DELIVERY_EXAMPLE = {
  id: 'msg_N7r8wEMHTCnIOUUU0PZFsRa9',
  webhook_id: 'wh_Nysyggz1jDmfYcEMifIyWIAx',
  event_id: 'evt_rdQpCRblCA4S3MMtu9Rif2ST',
  event_type: 'webhook.test',
  company_id: 'loja-exemplo',
  status: 'delivered',
  next_attempt_at: null,
  created_at: '2026-03-01T12:00:00.000000Z',
  delivered_at: '2026-03-01T12:00:00.000000Z',
  last_error: null,
  body: {
    type: 'webhook.test',
    timestamp: '2026-03-01T12:00:00.000Z',
    data: { webhook_id: 'wh_Nysyggz1jDmfYcEMifIyWIAx', company_id: 'loja-exemplo' },
  },
  attempts: [
    {
      at: '2026-03-01T12:00:00.000000Z',
      status_code: 204,
      latency_ms: 4.847,
      error: null,
      chaos: null,
      headers: {
        'content-type': 'application/json',
        'user-agent': `pix-sandbox/${VERSION}`,
        'webhook-id': 'evt_rdQpCRblCA4S3MMtu9Rif2ST',
        'webhook-timestamp': '1795814319',
        'webhook-signature': 'v1,uVJza/UdgiEFD3qarcZ/VQTFvbRM9YQ5ND6jWGzPn2s=',
      },
    },
  ],
}

export const DeliveryRecord = z
  .object({
    id: z
      .string()
      .openapi({ description: "The delivery's id (POST /webhooks/deliveries/{id}/retry)." }),
    webhook_id: z.string().openapi({ description: 'The subscription it is for.' }),
    event_id: z.string().openapi({
      description:
        'The event it tells of (GET /events), sent as the `webhook-id` header of a standard delivery: the same for every attempt and duplicate; webhook.test messages have their own.',
    }),
    event_type: z
      .string()
      .openapi({ description: 'The event type, or webhook.test.', example: 'charge.paid' }),
    company_id: z.string().nullable().openapi({ description: 'The company the event concerns.' }),
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        'pending while attempts remain; delivered on a 2xx; failed when retries ran out or the subscription was disabled.',
    }),
    next_attempt_at: isoOrNull.openapi({
      description: 'When the next attempt is due (virtual time); null unless pending.',
    }),
    created_at: iso.openapi({ description: 'When the delivery was queued (virtual time).' }),
    delivered_at: isoOrNull.openapi({ description: 'When a 2xx was received; null until then.' }),
    last_error: z
      .string()
      .nullable()
      .openapi({ description: "The last attempt's error, if it failed." }),
    body: z.unknown().openapi({ description: 'The JSON body sent (the same for every attempt).' }),
    attempts: z
      .array(AttemptRecord)
      .openapi({ description: 'Every attempt, oldest first (at most the newest 100).' }),
  })
  .openapi('WebhookDelivery', { example: DELIVERY_EXAMPLE })
export type DeliveryRecord = z.output<typeof DeliveryRecord>

const attemptRecord = (a: Attempt): z.output<typeof AttemptRecord> => ({
  at: isoMicros(a.at),
  status_code: a.statusCode,
  latency_ms: a.latencyMs,
  error: a.error,
  chaos: a.chaos,
  headers: a.headers,
})

export function deliveryRecord(webhooks: WebhookStore, d: Delivery): DeliveryRecord {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event_type: d.eventType,
    company_id: d.companyId,
    status: d.status,
    next_attempt_at: maybeIso(d.nextAttemptAt),
    created_at: isoMicros(d.createdAt),
    delivered_at: maybeIso(d.deliveredAt),
    last_error: d.lastError,
    body: JSON.parse(d.body),
    attempts: webhooks.attempts(d.id).map(attemptRecord),
  }
}
