// The receiver check (docs/READINESS.md#the-receiver-check): a fixed battery of Standard
// Webhooks messages sent to one receiver, to see whether it takes what it must (a correctly
// signed delivery, the same webhook-id again, an event type it does not know) and refuses what it
// must (a bad signature, a timestamp 10 minutes old), each within 5 s of the receiver's own time
// (stall.ts). Used by POST /_sandbox/webhooks/{id}/check (the subscription's own URL and secret)
// and by `pix-sandbox check-receiver`, which needs no sandbox. Redirects are never followed;
// every message carries `"test": true` in `data`.
import { randomBytes } from 'node:crypto'
import { realTime } from '../clock.js'
import { newSecret, sign } from './sign.js'
import { ownTimeout, stallSpan } from './stall.js'

export const CHECK_TIMEOUT_MS = 5000
const STALE_SECONDS = 600

export const CHECK_IDS = [
  'valid',
  'duplicate',
  'bad_signature',
  'stale_timestamp',
  'unknown_type',
] as const
export type CheckId = (typeof CHECK_IDS)[number]
export type Expected = '2xx' | '4xx'

const SPEC: Record<CheckId, { expected: Expected; advice: string }> = {
  valid: {
    expected: '2xx',
    advice:
      "Answer 2xx to a correctly signed delivery (verify with your subscription's whsec_ secret, e.g. with the standardwebhooks library).",
  },
  duplicate: {
    expected: '2xx',
    advice:
      'Deliveries come at least once: answer 2xx to a webhook-id you have already taken, without processing it twice.',
  },
  bad_signature: {
    expected: '4xx',
    advice:
      'Verify webhook-signature and answer 4xx when it does not match: anyone can POST to your endpoint.',
  },
  stale_timestamp: {
    expected: '4xx',
    advice:
      'Refuse (4xx) a webhook-timestamp more than 5 minutes from your clock, so a captured delivery cannot be replayed.',
  },
  unknown_type: {
    expected: '2xx',
    advice:
      'Answer 2xx to event types you do not handle, and ignore them: new types may come, and a refusal is retried for nothing.',
  },
}

export interface CheckResult {
  id: CheckId
  expected: Expected
  /** The status answered; null when there was no answer. */
  status: number | null
  ms: number
  passed: boolean
  /** What to change; null when the check passed. */
  advice: string | null
  /** Why there was no fitting answer (no connection, a timeout, a TLS error, a redirect); null otherwise. */
  error: string | null
}

export interface ReceiverCheck {
  passed: boolean
  checks: CheckResult[]
}

/** A check, and how much of each check's `ms` the sandbox's own event loop was held up (stall.ts): for readiness only. */
export interface TimedReceiverCheck {
  check: ReceiverCheck
  stalledMs: Partial<Record<CheckId, number>>
}

export interface CheckOptions {
  url: string
  secret: string
  userAgent: string
  /** The company the test messages say they are for (null: every company's subscription, or none). */
  companyId?: string | null
  /** The body's `timestamp` (the sandbox's virtual time; real time by default). */
  bodyTime?: string
  fetch?: typeof fetch
  timeoutMs?: number
  /** Refuses a URL before anything is sent (WEBHOOK_ALLOWED_HOSTS): every check fails with it. */
  refusal?: string | null
  /** Waits for a send slot of the subscription, and answers the function that gives it back (worker.ts). */
  slot?: () => Promise<() => void>
}

/** What each check advises when it fails. */
export const CHECK_ADVICE = Object.fromEntries(
  CHECK_IDS.map((id) => [id, SPEC[id].advice]),
) as Record<CheckId, string>

const inClass = (status: number | null, expected: Expected) =>
  status !== null &&
  (expected === '2xx' ? status >= 200 && status < 300 : status >= 400 && status < 500)
const eventId = () => `evt_check_${randomBytes(12).toString('base64url')}`

/** Why a send failed, in words, and what to do about it: a timeout, a refused connection, a TLS error. */
function failure(err: unknown, timeoutMs: number): { error: string; advice: string } {
  const e = err as Error & { cause?: { code?: string; message?: string } }
  if (e?.name === 'TimeoutError')
    return { error: `no answer within ${timeoutMs / 1000} s`, advice: SLOW_ADVICE }
  const code = e?.cause?.code ?? ''
  if (/CERT|SSL|TLS|SELF_SIGNED|ALTNAME/i.test(code)) {
    return {
      error: `TLS error (${code})`,
      advice:
        'Serve a certificate the sandbox trusts (NODE_EXTRA_CA_CERTS for a private CA), or plain http on a private network.',
    }
  }
  const why =
    code ||
    (e?.cause?.message === 'bad port'
      ? 'a port fetch refuses to call'
      : (e?.cause?.message ?? e?.message ?? String(err)))
  return {
    error: `could not connect (${why})`,
    advice: 'Start the receiver, and make it reachable from where the check runs, at this URL.',
  }
}

const SLOW_ADVICE =
  'Answer within 5 s: acknowledge (2xx) first and do the work afterwards, from a queue.'

export async function checkReceiver(o: CheckOptions): Promise<ReceiverCheck> {
  return (await checkReceiverTimed(o)).check
}

export async function checkReceiverTimed(o: CheckOptions): Promise<TimedReceiverCheck> {
  const stalledMs: TimedReceiverCheck['stalledMs'] = {}
  const timeoutMs = o.timeoutMs ?? CHECK_TIMEOUT_MS
  const doFetch = o.fetch ?? fetch
  const bodyTime = o.bodyTime ?? new Date().toISOString()
  const data = (extra: Record<string, unknown> = {}) => ({
    test: true,
    ...extra,
    company_id: o.companyId ?? null,
  })
  const paid = () =>
    JSON.stringify({
      type: 'charge.paid',
      timestamp: bodyTime,
      data: data({
        transaction_id: `check${randomBytes(12).toString('hex')}`,
        amount: 1000,
        end_to_end_id: null,
        payer: null,
      }),
    })

  async function send(
    id: CheckId,
    message: { eventId: string; body: string; secret?: string; ageSeconds?: number },
  ): Promise<CheckResult> {
    const { expected, advice } = SPEC[id]
    const result = (
      status: number | null,
      ms: number,
      error: string | null,
      why = advice,
    ): CheckResult => {
      const passed = error === null && inClass(status, expected)
      return {
        id,
        expected,
        status,
        ms: Math.round(ms),
        passed,
        advice: passed ? null : why,
        error,
      }
    }
    if (o.refusal)
      return result(
        null,
        0,
        `not sent: ${o.refusal}`,
        'Add the host to WEBHOOK_ALLOWED_HOSTS, or subscribe a receiver on a host it allows.',
      )
    const timestamp = Math.floor(realTime() / 1_000_000) - (message.ageSeconds ?? 0)
    const headers = {
      'content-type': 'application/json',
      'user-agent': o.userAgent,
      'webhook-id': message.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(
        message.secret ?? o.secret,
        message.eventId,
        timestamp,
        message.body,
      ),
    }
    const release = await o.slot?.()
    const span = stallSpan()
    const limit = ownTimeout(timeoutMs, span)
    try {
      const res = await doFetch(o.url, {
        method: 'POST',
        headers,
        body: message.body,
        redirect: 'manual',
        signal: limit.signal,
      })
      await res.body?.cancel().catch(() => undefined)
      const ms = span.wall()
      if (res.status >= 300 && res.status < 400) {
        const to = res.headers.get('location')
        return result(
          res.status,
          ms,
          `answered ${res.status}, a redirect${to ? ` to ${to.slice(0, 200)}` : ''}: not followed`,
          'Subscribe the final URL: webhooks are never redirected.',
        )
      }
      return result(res.status, ms, null)
    } catch (err) {
      const { error, advice: why } = failure(err, timeoutMs)
      return result(null, span.wall(), error, why)
    } finally {
      limit.done()
      stalledMs[id] = span.end()
      release?.()
    }
  }

  // The duplicate follows the delivery it repeats; the other three go beside them, so a receiver
  // that never answers takes two limits, not five.
  const valid = { eventId: eventId(), body: paid() }
  const [first, ...others] = await Promise.all([
    send('valid', valid).then(async (v) => [v, await send('duplicate', valid)]),
    send('bad_signature', { eventId: eventId(), body: paid(), secret: newSecret() }),
    send('stale_timestamp', { eventId: eventId(), body: paid(), ageSeconds: STALE_SECONDS }),
    send('unknown_type', {
      eventId: eventId(),
      body: JSON.stringify({ type: 'sandbox.unknown_type', timestamp: bodyTime, data: data() }),
    }),
  ])
  const checks = [...(first as CheckResult[]), ...(others as CheckResult[])]
  return { check: { passed: checks.every((c) => c.passed), checks }, stalledMs }
}
