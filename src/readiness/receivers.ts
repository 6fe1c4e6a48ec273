// Readiness from webhook receivers: what each delivery attempt (webhooks/worker.ts) and each
// receiver check (webhooks/check.ts) saw of a company's receiver: the webhook behaviours met,
// and the findings (a bad signature or a stale timestamp taken, a genuine delivery, an unknown
// event type or a duplicate refused, slowness); the newest check of each receiver is kept for the
// report. What a receiver took and refused of genuine deliveries is judged across the run when
// the report is read (receiver-judgement.ts). A settling webhook acknowledged is when the client
// could learn a transfer's outcome (retries.ts judges a payout sent after it).
import { realTime } from '../clock.js'
import type { ReceiverCheck, TimedReceiverCheck } from '../webhooks/check.js'
import { NO_COMPANY, type Entry } from './book.js'
import { B, F } from './catalog.js'
import { ANY } from './entry.js'
import { receiverPath, type Observing } from './observing.js'
import { isSlow, SLOW_RECEIVER_MS, timeTaken } from './slow-receiver.js'

/** One attempt of a webhook delivery that reached its receiver (webhooks/worker.ts). */
export interface AttemptSeen {
  companyId: string | null
  /** The subscription it was sent for. */
  subscriptionId: string
  url: string
  eventType: string
  deliveryId: string
  statusCode: number | null
  /** Wall time, as recorded. */
  latencyMs: number
  /** How much of it the sandbox's own event loop was held up (webhooks/stall.ts): not the receiver's. */
  stalledMs: number
  timedOut: boolean
  badSignature: boolean
  /** The second send of duplicate chaos. */
  duplicate: boolean
  /** An attempt of this delivery failed before. */
  retried: boolean
  /** The receiver had already answered 2xx for this delivery (its webhook-id). */
  acknowledgedBefore: boolean
  /** Signed (the `standard` format), so that a refusal can be the signature's. */
  signed: boolean
  /** The body sent (read for a transfer's settlement only). */
  body: string
}

/**
 * What a receiver answers when it refuses a delivery as a bad one: a signature it rejects, or an
 * event type it does not handle (which is which is judged with what else it took).
 */
const REFUSED = new Set([400, 401, 403])
const SETTLED = new Set(['transfer.succeeded', 'transfer.failed'])

/** The transaction id a transfer.* delivery's body tells of; null when it has none. */
function transactionOf(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { data?: { transaction_id?: unknown } }).data?.transaction_id
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

/** A receiver of `owner` acknowledged transaction `tx`'s settling webhook, sent at `sentMs` (paid-twice.ts). */
type Learnt = (owner: string, e: Entry, tx: string, sentMs: number) => void

/** `slowMs`: the receiver_slow threshold (slow-receiver.ts); tests lower it. */
export function receiverObserver(
  { book, store, clock, nowMs, example }: Observing,
  learnt: Learnt,
  slowMs = SLOW_RECEIVER_MS,
) {
  const WEBHOOK_BEHAVIOUR: Record<string, number> = {
    'charge.paid': B['webhook.charge.paid'],
    'charge.cancelled': B['webhook.charge.cancelled'],
    'transfer.succeeded': B['webhook.transfer.succeeded'],
    'transfer.failed': B['webhook.transfer.failed'],
  }

  function attempt(a: AttemptSeen): void {
    const owner = a.companyId ?? NO_COMPANY
    const at = clock.now()
    const e = book.entry(owner, at)
    if (!e) return
    const path = receiverPath(a.url)
    const seen = (finding: number, what: string) =>
      book.again(owner, e, finding) ||
      book.first(
        owner,
        e,
        finding,
        example(owner, 'POST', path, at, `${what} (${a.eventType}, delivery ${a.deliveryId})`),
      )
    const code = a.statusCode
    const ok = code !== null && code >= 200 && code < 300
    const refusal = () =>
      example(
        owner,
        'POST',
        path,
        at,
        `the receiver answered ${code} to a correctly signed, fresh ${a.eventType} (delivery ${a.deliveryId})`,
      )
    if (a.badSignature) {
      if (ok)
        seen(
          F.receiver_accepts_bad_signature,
          `the receiver answered ${code} to a delivery signed with a wrong key`,
        )
      else if (code !== null && code >= 400 && code < 500)
        book.meet(owner, e, B['webhook.bad_signature_rejected'])
    } else if (ok) {
      if (a.signed)
        book.receiver(owner, e, a.subscriptionId, path, a.eventType, false, realTime(), refusal)
      const behaviour = WEBHOOK_BEHAVIOUR[a.eventType]
      if (behaviour !== undefined) book.meet(owner, e, behaviour)
      if (a.retried) book.meet(owner, e, B['webhook.retried'])
      if (a.duplicate) book.meet(owner, e, B['webhook.duplicate'])
      if (SETTLED.has(a.eventType)) {
        const id = transactionOf(a.body)
        if (id !== null) {
          learnt(owner, e, id, nowMs() - a.latencyMs)
          if (store.transfers.byId(id)?.settledAt != null)
            book.meet(owner, e, B['transfer.pending_settled'])
        }
      }
    } else if (a.acknowledgedBefore && code !== null) {
      seen(
        F.receiver_rejects_duplicate,
        `the receiver answered ${code} to a webhook-id it had acknowledged already`,
      )
    } else if (a.signed && code !== null && REFUSED.has(code)) {
      book.receiver(owner, e, a.subscriptionId, path, a.eventType, true, realTime(), refusal)
    }
    const timed = { ms: a.latencyMs, stalledMs: a.stalledMs, timedOut: a.timedOut }
    if (isSlow(timed, slowMs)) {
      seen(
        F.receiver_slow,
        a.timedOut
          ? 'the receiver did not answer in time'
          : `the receiver took ${timeTaken(timed)} to answer`,
      )
    }
  }

  /**
   * What the receiver check saw of a company's receiver (a subscription's): its failures are
   * findings too, and the check is kept for the report. `stalledMs`: the sandbox's own stall
   * during each check (none when not given).
   */
  function checked(
    companyId: string | null,
    subscriptionId: string,
    url: string,
    result: ReceiverCheck,
    stalledMs: TimedReceiverCheck['stalledMs'] = {},
  ): void {
    const owner = companyId ?? NO_COMPANY
    const at = clock.now()
    const e = book.entry(owner, at)
    if (!e) return
    const path = receiverPath(url)
    const failed = result.checks
      .filter((c) => !c.passed)
      .map(({ id, expected, status, error, advice }) => ({ id, expected, status, error, advice }))
    book.checked(owner, e, { url: path, at, wallAt: realTime(), passed: result.passed, failed })
    const by = Object.fromEntries(result.checks.map((c) => [c.id, c]))
    const ok = (status: number | null) => status !== null && status >= 200 && status < 300
    const seen = (finding: number, what: string) =>
      book.again(owner, e, finding) ||
      book.first(owner, e, finding, example(owner, 'POST', path, at, `the receiver check: ${what}`))
    const valid = by.valid
    const took = valid !== undefined && valid.error === null && ok(valid.status)
    // The check's `valid` (a test charge.paid) tells whether the receiver takes genuine
    // deliveries, not which event types it handles (one may refuse test messages): of no type.
    if (
      took ||
      (valid && valid.error === null && valid.status !== null && REFUSED.has(valid.status))
    )
      book.receiver(owner, e, subscriptionId, path, ANY, !took, realTime(), () =>
        example(
          owner,
          'POST',
          path,
          at,
          `the receiver check: the receiver answered ${valid!.status} to a correctly signed, fresh charge.paid`,
        ),
      )
    const unknown = by.unknown_type
    if (took && unknown && unknown.status !== null && unknown.status >= 400 && unknown.status < 500)
      seen(
        F.receiver_rejects_unknown_type,
        `the receiver answered ${unknown.status} to a correctly signed, fresh event of a type it does not know, and ${valid!.status} to a charge.paid`,
      )
    const bad = by.bad_signature
    if (bad && ok(bad.status))
      seen(
        F.receiver_accepts_bad_signature,
        `the receiver answered ${bad.status} to a delivery signed with a wrong key`,
      )
    if (bad && bad.error === null && bad.passed)
      book.meet(owner, e, B['webhook.bad_signature_rejected'])
    const stale = by.stale_timestamp
    if (stale && ok(stale.status))
      seen(
        F.receiver_accepts_stale_timestamp,
        `the receiver answered ${stale.status} to a delivery signed 10 minutes ago`,
      )
    const dup = by.duplicate
    if (
      dup &&
      ok(by.valid?.status ?? null) &&
      dup.status !== null &&
      !ok(dup.status) &&
      dup.error === null
    ) {
      seen(
        F.receiver_rejects_duplicate,
        `the receiver answered ${dup.status} to a webhook-id it had taken a moment before`,
      )
    }
    const timed = (c: (typeof result.checks)[number]) => ({
      ms: c.ms,
      stalledMs: stalledMs[c.id] ?? 0,
      timedOut: c.error?.startsWith('no answer within') === true,
    })
    const slow = result.checks.find((c) => isSlow(timed(c), slowMs))
    if (slow)
      seen(
        F.receiver_slow,
        slow.status === null
          ? `${slow.id}: ${slow.error}`
          : `${slow.id}: answered after ${timeTaken(timed(slow))}`,
      )
  }

  return { attempt, checked }
}
