// What a client can set on a webhook subscription, as zod schemas: the control plane validates
// with them and publishes them, and the store's `Chaos` and `WebhookEvent` types are their
// output (types only).
import { z } from '@hono/zod-openapi'

/** The events a subscription can receive. */
export const WEBHOOK_EVENTS = [
  'charge.paid',
  'charge.cancelled',
  'transfer.succeeded',
  'transfer.failed',
  'transfer.pending',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

const probability = z.number().min(0).max(1)

export const chaosSchema = z
  .object({
    drop: probability.optional().openapi({
      description:
        'Chance (0..1) that an attempt is dropped: not sent, recorded as failed, retried on the schedule.',
    }),
    duplicate: probability.optional().openapi({
      description: 'Chance (0..1) that a message is sent twice with the same webhook-id.',
    }),
    bad_signature: probability
      .optional()
      .openapi({ description: 'Chance (0..1) that an attempt carries a wrong signature.' }),
    delay_ms: z
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .openapi({ description: 'Milliseconds to hold every attempt before sending it.' }),
    reorder: z
      .boolean()
      .optional()
      .openapi({ description: 'Hold messages 2 s (virtual) and send them newest first.' }),
  })
  .strict()
  .openapi('WebhookChaos')

export type Chaos = z.output<typeof chaosSchema>
