// The receiver check's answer (F4) as the control plane publishes it.
import { z } from '@hono/zod-openapi'
import { CHECK_IDS, type ReceiverCheck as Result } from '../../../webhooks/check.js'

export const ReceiverCheckResult = z
  .object({
    id: z.enum(CHECK_IDS).openapi({ description: 'valid (signed: 2xx), duplicate (the same webhook-id again: 2xx), bad_signature (4xx), stale_timestamp (signed 10 minutes ago: 4xx), unknown_type (an event type it does not know: 2xx).' }),
    expected: z.enum(['2xx', '4xx']).openapi({ description: 'The answer a safe receiver gives.' }),
    status: z.int().nullable().openapi({ description: 'The status it answered; null when it did not answer.' }),
    ms: z.int().openapi({ description: 'Milliseconds until the answer (or until the attempt gave up).' }),
    passed: z.boolean().openapi({ description: 'It answered as expected, within 5 s, without a redirect.' }),
    advice: z.string().nullable().openapi({ description: 'What to change; null when it passed.' }),
    error: z.string().nullable().openapi({ description: 'Why no fitting answer came: no connection, no answer within 5 s, a TLS error, a redirect (never followed), a host not allowed; null otherwise.' }),
  })
  .openapi('ReceiverCheckResult')

export const ReceiverCheck = z
  .object({
    passed: z.boolean().openapi({ description: 'Every check passed.' }),
    checks: z.array(ReceiverCheckResult).openapi({ description: 'Each check, in the order above.' }),
  })
  .openapi('ReceiverCheck')

export const receiverCheckRecord = (r: Result): z.output<typeof ReceiverCheck> => r
