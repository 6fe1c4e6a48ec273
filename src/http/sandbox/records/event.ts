// An event of the append-only log, as the control plane shows it.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import type { SandboxEvent } from '../../../domain/types.js'
import { iso } from '../schemas.js'

/** The event of CHARGE_EXAMPLE's payment. */
export const EVENT_EXAMPLE = {
  id: 'evt_qsI5SCniKYhp3mzxG9je6bG7',
  type: 'charge.paid',
  at: '2026-03-01T12:00:00.000000Z',
  company_id: 'loja-exemplo',
  data: {
    transaction_id: '087HVGqaTg0ZvRMkeazdQv9xe49IswOY',
    amount: 1000,
    end_to_end_id: 'E0000000020260301120000000U3wUoK',
    payer: { name: 'Maria Souza', document: '52998224725' },
  },
}

export const EventRecord = z
  .object({
    id: z
      .string()
      .openapi({ description: 'Stable id of the event (webhook deliveries carry it).' }),
    type: z.string().openapi({
      description: 'What happened, e.g. charge.paid, transfer.settled, balance.changed.',
      example: 'charge.paid',
    }),
    at: iso.openapi({ description: 'When it happened, in virtual time.' }),
    company_id: z.string().nullable().openapi({
      description: 'The company it concerns; null for sandbox-wide events (a scenario applied).',
    }),
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The event's details; their fields depend on `type`." }),
  })
  .openapi('Event', { example: EVENT_EXAMPLE })
export type EventRecord = z.output<typeof EventRecord>

export const eventRecord = (e: SandboxEvent): EventRecord => ({
  id: e.id,
  type: e.type,
  at: isoMicros(e.at),
  company_id: e.companyId,
  data: e.data,
})
