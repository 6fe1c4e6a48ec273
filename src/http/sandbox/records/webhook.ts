// A webhook subscription as the control plane shows it: the published schema, and the mapper held to it.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import type { Subscription } from '../../../store/webhooks.js'
import { chaosSchema, WEBHOOK_EVENTS } from '../../../webhooks/schema.js'
import { iso, isoOrNull, maybeIso, orNull } from '../schemas.js'

/** A subscription made with the company's credentials and the request example. */
export const WEBHOOK_EXAMPLE = {
  id: 'wh_Nysyggz1jDmfYcEMifIyWIAx',
  company_id: 'loja-exemplo',
  url: 'http://127.0.0.1:3000/webhooks/pix',
  events: ['charge.paid', 'transfer.failed'],
  format: 'standard',
  secret: 'whsec_UN5JJQ9bjLQ0OQvuFP/OUeN5yEO8hEmi',
  chaos: null,
  disabled_at: null,
  disabled_reason: null,
  created_at: '2026-03-01T12:00:00.000000Z',
}

export const WebhookRecord = z
  .object({
    id: z.string().openapi({ description: "The subscription's id." }),
    company_id: z.string().nullable().openapi({
      description:
        "The company whose events it receives; null for the admin's global subscriptions (every company's).",
    }),
    url: z
      .string()
      .openapi({ description: 'Where deliveries are POSTed (`<url>/pix` for the bcb format).' }),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .openapi({ description: 'The event types it receives.' }),
    format: z.enum(['standard', 'bcb']).openapi({
      description:
        'standard: Standard Webhooks, signed; bcb: the BCB API Pix `{"pix": [...]}` body.',
    }),
    secret: z
      .string()
      .openapi({ description: 'The whsec_ secret that signs standard deliveries.' }),
    chaos: orNull(chaosSchema).openapi({
      description: 'The misbehaviour set with PUT /webhooks/{id}/chaos; null when it behaves.',
    }),
    disabled_at: isoOrNull.openapi({
      description: 'When it was disabled (a 410 from the receiver); null while active.',
    }),
    disabled_reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why it was disabled; null while active.' }),
    created_at: iso.openapi({ description: 'When it was created (virtual time).' }),
  })
  .openapi('Webhook', { example: WEBHOOK_EXAMPLE })
export type WebhookRecord = z.output<typeof WebhookRecord>

export function webhookRecord(s: Subscription): WebhookRecord {
  return {
    id: s.id,
    company_id: s.companyId,
    url: s.url,
    events: s.events,
    format: s.format,
    secret: s.secret,
    chaos: s.chaos,
    disabled_at: maybeIso(s.disabledAt),
    disabled_reason: s.disabledReason,
    created_at: isoMicros(s.createdAt),
  }
}
