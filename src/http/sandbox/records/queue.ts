// Queued outcomes and injected faults as the control plane shows them: the published schemas,
// and the mappers held to them.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import { MAX_PIX_KEY_LENGTH } from '../../../pix/keys.js'
import type { Fault } from '../../../store/faults.js'
import type { QueuedOutcome } from '../../../store/outcomes.js'
import { amount, iso, Outcome, pixType } from '../schemas.js'

/** Which transfers an outcome applies to: every field given must match. */
export const OutcomeMatch = z
  .object({
    pix_key: z
      .string()
      .max(MAX_PIX_KEY_LENGTH, `must be at most ${MAX_PIX_KEY_LENGTH} characters`)
      .optional()
      .openapi({ description: 'Only transfers to this key.' }),
    pix_type: pixType.optional().openapi({ description: 'Only transfers to keys of this type.' }),
    amount: amount.optional().openapi({ description: 'Only transfers of this amount (cents).' }),
  })
  .strict()
  .openapi('OutcomeMatch')

const owner = z
  .string()
  .nullable()
  .openapi({ description: 'The company it applies to; null: every company.' })

/** The request example of POST /outcomes, queued by the admin. */
export const OUTCOME_EXAMPLE = {
  id: 1,
  company_id: null,
  status: 'pending',
  settle_after_seconds: 30,
  final_status: 'failed',
  match: {},
  times: 1,
  created_at: '2026-03-01T12:00:00.000000Z',
}

export const OutcomeRecord = Outcome.extend({
  id: z.int().openapi({ description: 'Its id, in queue order.' }),
  company_id: owner,
  match: OutcomeMatch.openapi({ description: 'Which transfers take it; {} matches any.' }),
  times: z.int().openapi({ description: 'How many more transfers it will decide.' }),
  created_at: iso.openapi({ description: 'When it was queued (virtual time).' }),
}).openapi('QueuedOutcome', { example: OUTCOME_EXAMPLE })
export type OutcomeRecord = z.output<typeof OutcomeRecord>

export const outcomeRecord = (o: QueuedOutcome): OutcomeRecord => ({
  id: o.id,
  company_id: o.companyId,
  ...o.outcome,
  match: o.match,
  times: o.remaining,
  created_at: isoMicros(o.createdAt),
})

/** The request example of POST /faults, injected by the admin. */
export const FAULT_EXAMPLE = {
  id: 1,
  company_id: null,
  operation: 'transfer',
  status: 500,
  delay_ms: 0,
  times: 1,
  retry_after: null,
  when: 'after',
  drop: false,
  created_at: '2026-03-01T12:00:00.000000Z',
}

export const FaultRecord = z
  .object({
    id: z.int().openapi({ description: 'Its id, in queue order.' }),
    company_id: owner,
    operation: z
      .enum(['charge', 'transfer', 'company'])
      .openapi({ description: 'The contract operation it strikes.' }),
    status: z
      .union([z.literal(500), z.literal(501), z.literal(503)])
      .nullable()
      .openapi({ description: 'The status it answers; null: only a delay.' }),
    delay_ms: z.int().openapi({ description: 'Milliseconds it holds each call before answering.' }),
    times: z
      .int()
      .nullable()
      .openapi({ description: 'How many more calls it strikes; null: until deleted.' }),
    retry_after: z.int().nullable().openapi({
      description: 'The seconds its 503 asks the client to wait (`Retry-After`); null: no header.',
    }),
    when: z.enum(['before', 'after']).openapi({
      description:
        '`before`: the call fails and nothing is done; `after`: the operation takes effect, then the answer is lost.',
    }),
    drop: z.boolean().openapi({
      description:
        'Whether it closes the connection without an answer (after the operation took effect).',
    }),
    created_at: iso.openapi({ description: 'When it was injected (virtual time).' }),
  })
  .openapi('Fault', { example: FAULT_EXAMPLE })
export type FaultRecord = z.output<typeof FaultRecord>

export const faultRecord = (f: Fault): FaultRecord => ({
  id: f.id,
  company_id: f.companyId,
  operation: f.operation,
  status: f.status,
  delay_ms: f.delayMs,
  times: f.remaining,
  retry_after: f.retryAfter,
  when: f.after ? 'after' : 'before',
  drop: f.drop,
  created_at: isoMicros(f.createdAt),
})
