// The receiver check's answer (docs/READINESS.md#the-receiver-check) as the control plane publishes it.
import { z } from '@hono/zod-openapi'
import { CHECK_IDS, type ReceiverCheck as Result } from '../../../webhooks/check.js'

export const ReceiverCheckResult = z
  .object({
    id: z.enum(CHECK_IDS).openapi({
      description:
        'valid (signed: 2xx), duplicate (the same webhook-id again: 2xx), bad_signature (4xx), stale_timestamp (signed 10 minutes ago: 4xx), unknown_type (an event type it does not know: 2xx).',
    }),
    expected: z.enum(['2xx', '4xx']).openapi({ description: 'The answer a safe receiver gives.' }),
    status: z
      .int()
      .nullable()
      .openapi({ description: 'The status it answered; null when it did not answer.' }),
    ms: z
      .int()
      .openapi({ description: 'Milliseconds until the answer (or until the attempt gave up).' }),
    passed: z
      .boolean()
      .openapi({ description: 'It answered as expected, within 5 s, without a redirect.' }),
    advice: z.string().nullable().openapi({ description: 'What to change; null when it passed.' }),
    error: z.string().nullable().openapi({
      description:
        'Why no fitting answer came: no connection, no answer within 5 s, a TLS error, a redirect (never followed), a host not allowed; null otherwise.',
    }),
  })
  .openapi('ReceiverCheckResult')

/** A receiver that answers 204 to everything: it verifies neither signatures nor timestamps. */
const RECEIVER_CHECK_EXAMPLE = {
  passed: false,
  checks: [
    { id: 'valid', expected: '2xx', status: 204, ms: 6, passed: true, advice: null, error: null },
    {
      id: 'duplicate',
      expected: '2xx',
      status: 204,
      ms: 2,
      passed: true,
      advice: null,
      error: null,
    },
    {
      id: 'bad_signature',
      expected: '4xx',
      status: 204,
      ms: 4,
      passed: false,
      advice:
        'Verify webhook-signature and answer 4xx when it does not match: anyone can POST to your endpoint.',
      error: null,
    },
    {
      id: 'stale_timestamp',
      expected: '4xx',
      status: 204,
      ms: 4,
      passed: false,
      advice:
        'Refuse (4xx) a webhook-timestamp more than 5 minutes from your clock, so a captured delivery cannot be replayed.',
      error: null,
    },
    {
      id: 'unknown_type',
      expected: '2xx',
      status: 204,
      ms: 4,
      passed: true,
      advice: null,
      error: null,
    },
  ],
}

export const ReceiverCheck = z
  .object({
    passed: z.boolean().openapi({ description: 'Every check passed.' }),
    checks: z
      .array(ReceiverCheckResult)
      .openapi({ description: 'Each check, in the order above.' }),
  })
  .openapi('ReceiverCheck', { example: RECEIVER_CHECK_EXAMPLE })

export const receiverCheckRecord = (r: Result): z.output<typeof ReceiverCheck> => r
