// One HTTP attempt of a delivery: the URL and headers of its format, a 15 s limit of the
// receiver's own time (stall.ts). The headers are returned with the result, so the attempt
// records exactly what was handed to fetch.
import { realTime } from '../clock.js'
import type { Delivery, Subscription } from '../store/webhooks.js'
import { newSecret, sign } from './sign.js'
import { ownTimeout, stallSpan } from './stall.js'

export const DELIVERY_TIMEOUT_MS = 15_000

export interface SendResult {
  statusCode: number | null
  /** Wall time from the send to the answer (or to giving up): what the attempt records. */
  latencyMs: number
  /** How much of `latencyMs` the sandbox's own event loop was held up (stall.ts): not the receiver's time. */
  stalledMs: number
  error: string | null
  /** Seconds the receiver asked us to wait (Retry-After), if it did. */
  retryAfter: number | null
  /** The headers the attempt set (fetch adds only transport ones: host, content-length, ...); null when nothing was sent. */
  headers: Record<string, string> | null
  /** The receiver took the request and did not answer within the limit. */
  timedOut?: boolean
}

/** `Retry-After`: delay-seconds or an HTTP date; capped at a day. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null
  const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - nowMs) / 1000
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), 86_400) : null
}

export async function send(
  sub: Subscription,
  d: Delivery,
  opts: { badSignature: boolean; userAgent: string; fetch: typeof fetch },
): Promise<SendResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': opts.userAgent,
  }
  let url = sub.url
  if (sub.format === 'standard') {
    // Real time, not virtual: receivers check the timestamp against their own clock.
    const timestamp = Math.floor(realTime() / 1_000_000)
    headers['webhook-id'] = d.eventId
    headers['webhook-timestamp'] = String(timestamp)
    headers['webhook-signature'] = sign(
      opts.badSignature ? newSecret() : sub.secret,
      d.eventId,
      timestamp,
      d.body,
    )
  } else {
    url = `${sub.url.replace(/\/+$/, '')}/pix`
  }
  const span = stallSpan()
  const limit = ownTimeout(DELIVERY_TIMEOUT_MS, span)
  try {
    const res = await opts.fetch(url, {
      method: 'POST',
      headers,
      body: d.body,
      redirect: 'manual',
      signal: limit.signal,
    })
    await res.body?.cancel().catch(() => undefined)
    return {
      statusCode: res.status,
      latencyMs: span.wall(),
      stalledMs: span.end(),
      error: res.ok ? null : `the receiver answered ${res.status}`,
      retryAfter: parseRetryAfter(res.headers.get('retry-after'), realTime() / 1000),
      headers,
    }
  } catch (err) {
    const timeout = (err as Error)?.name === 'TimeoutError'
    const cause = (err as { cause?: { code?: string } }).cause?.code
    return {
      statusCode: null,
      latencyMs: span.wall(),
      stalledMs: span.end(),
      error: timeout
        ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : `could not connect${cause ? ` (${cause})` : ''}`,
      retryAfter: null,
      headers,
      timedOut: timeout,
    }
  } finally {
    limit.done()
  }
}
