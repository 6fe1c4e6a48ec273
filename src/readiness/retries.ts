// Calls sent again (docs/READINESS.md#the-findings): a transfer sent again after its answer was
// lost (retry_after_server_error) and, when both went through, paid twice (paid-twice.ts); a call
// sent again, identical, after an answer that cannot change by retrying, whatever it is answered
// then (retried_permanent_error);
// an operation called again before the Retry-After of its 503 (ignored_retry_after).
//
// What tells a retry from a new call, so that a correct suite raises none whatever its order:
// - a retry is the same client's reaction to the answer it lost: it starts after the answer was
//   lost (answered 5xx, dropped, or the client gave up and closed the connection, even while the
//   sandbox is still processing the first), within 60 s, from the same credentials; a call sent
//   beside the first is not one;
// - a retry loop never calls the control plane, a test does: a control call that changes
//   something (a fault, an outcome, a tenant, a reset...) made by the company or the admin between
//   the two marks a new test, and the second call is not a retry. Between the two arrivals, not
//   from the loss: the client that waits for an answer makes no step, and the server learns of
//   a closed connection a moment after the client closed it (the next test's first step may be
//   read before it). Suites that make a tenant per test are told apart by their credentials.
// Calls are remembered only when they may be judged: a lost or refused answer, or while a fault
// holds one of the company's calls (its retries may be answered before it is); the common call
// costs one comparison.
import type { Entry } from './book.js'
import { F } from './catalog.js'
import type { Observing } from './observing.js'
import { paidTwiceJudge } from './paid-twice.js'
import type { RequestSeen } from './request-seen.js'
import {
  CALLS_KEPT,
  OPERATIONS,
  stepWithin,
  type Operation,
  type Sent,
  type Steps,
} from './retry-state.js'

/** A call sent again within this long of the answer it lost is a retry. */
export const RETRY_WINDOW_MS = 60_000
/**
 * How long before the server saw a client close a connection it may have closed it: a retry sent
 * at once on another connection can be read first (both in one turn of the event loop, or a loaded
 * one), and is still sent after the loss.
 */
const CLOSE_SLACK_MS = 250
/** A call is forgotten this long after it arrived: the window, plus the longest a fault can hold it. */
const KEPT_MS = 2 * RETRY_WINDOW_MS

const TRANSFER_DEBITED = /^\{"status":"(?:success|pending)"/
const TRANSACTION_ID = /"transaction_id":"([^"]{1,64})"/
const PERMANENT: Record<string, string> = { 501: 'a 501', 403: 'a 403' }

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/**
 * A body field as part of a call's identity: a scalar as sent, an object or array (only a refused
 * body holds one) as its kind. Any body a client sends must leave the recorder working, and
 * JSON.stringify of an array nested 100,000 deep overflows the stack (the differential found it).
 */
const asKey = (v: unknown): unknown =>
  v !== null && typeof v === 'object' ? (Array.isArray(v) ? '[array]' : '[object]') : v

export function retryJudge(observing: Observing, adminSteps: Steps) {
  const { book, nowMs, example } = observing
  const twice = paidTwiceJudge(observing)
  /** A control call of the company's or the admin's between the two instants: a test's step. */
  const stepBetween = (e: Entry, from: number, to: number) =>
    stepWithin(e.retry.steps, from, to) || stepWithin(adminSteps, from, to)

  function count(owner: string, e: Entry, finding: number, second: Sent, seen: () => string): void {
    const bit = 1 << finding
    if (second.counted & bit) return
    second.counted |= bit
    if (!book.again(owner, e, finding))
      book.first(owner, e, finding, example(owner, second.method, second.path, second.at, seen()))
  }

  /** Judges `second` as sent again after `first`, counting what it shows. */
  function judge(owner: string, e: Entry, first: Sent, second: Sent): void {
    if (first.lostMs >= 0 && first.operation === 'transfer' && second.operation === 'transfer') {
      const early = second.arrivedMs - first.lostMs
      const since = Math.max(0, early)
      if (
        early >= -first.lostSlackMs &&
        since < RETRY_WINDOW_MS &&
        !stepBetween(e, first.arrivedMs, second.arrivedMs)
      ) {
        const inFlight =
          first.answeredMs > second.arrivedMs ? ', while the first was still being processed' : ''
        if (first.debited && second.debited && first.pays === second.pays)
          return twice.paid(owner, e, first, second, since, inFlight)
        if (first.same === second.same) {
          return count(
            owner,
            e,
            F.retry_after_server_error,
            second,
            () =>
              `the same transfer (amount, pix_key and description) sent again ${seconds(since)} after ${first.lost}${inFlight}`,
          )
        }
      }
    }
    // Whatever the second was answered: a one-shot fault that ran out is no change of setup, and
    // the loop that retried it would have retried a real Provider's 501 as blindly.
    if (
      first.refused !== null &&
      first.operation === second.operation &&
      first.pays === second.pays
    ) {
      const since = second.arrivedMs - first.answeredMs
      if (
        since >= 0 &&
        since < RETRY_WINDOW_MS &&
        !stepBetween(e, first.arrivedMs, second.arrivedMs)
      ) {
        count(
          owner,
          e,
          F.retried_permanent_error,
          second,
          () =>
            `the same ${first.operation} (amount and pix_key) sent again ${seconds(since)} after ${first.refused}, with no change of setup between (answered ${second.status})`,
        )
      }
    }
  }

  /** What a charge or transfer call was, as its judgement keeps it; null when its body is no object. */
  function sentOf(o: RequestSeen, operation: Operation): Sent | null {
    let t: { amount?: unknown; pix_key?: unknown; description?: unknown }
    try {
      t = JSON.parse(o.requestBody ?? '') as typeof t
    } catch {
      return null
    }
    if (t === null || typeof t !== 'object') return null
    const now = nowMs()
    const lostToClient = o.closedMs >= 0 || (o.dropped && o.fault !== 'drop')
    const lost =
      o.fault === 'drop'
        ? 'its connection was dropped before the answer'
        : lostToClient
          ? 'its client closed the connection before the answer'
          : o.status >= 500 && o.status !== 501
            ? `a ${o.status}`
            : ''
    const refused =
      o.errorCode === 'no_provider' ? 'a 422 "no Provider"' : (PERMANENT[o.status] ?? null)
    const pays = JSON.stringify([o.clientId, operation, asKey(t.amount), asKey(t.pix_key)])
    return {
      operation,
      same: `${pays}${JSON.stringify(asKey(t.description ?? null))}`,
      pays,
      arrivedMs: o.arrivedMs,
      lostMs: lost === '' ? -1 : o.closedMs >= 0 ? o.closedMs : now,
      lostSlackMs: o.closedMs >= 0 ? CLOSE_SLACK_MS : 0,
      lost,
      debited:
        operation === 'transfer' &&
        o.effectStatus === 200 &&
        TRANSFER_DEBITED.test(o.effectBody ?? ''),
      transactionId:
        o.effectStatus === 200 ? (TRANSACTION_ID.exec(o.effectBody ?? '')?.[1] ?? null) : null,
      refused: lost === '' ? refused : null,
      answeredMs: now,
      status: o.status,
      at: o.at,
      method: o.method,
      path: o.path,
      counted: 0,
    }
  }

  /** A charge or transfer call of an authenticated company, judged against the calls before it. */
  function sent(owner: string, e: Entry, o: RequestSeen, operation: Operation): void {
    const lostOrRefused =
      o.dropped ||
      o.closedMs >= 0 ||
      o.status >= 500 ||
      o.status === 403 ||
      o.errorCode === 'no_provider'
    const holding = e.retry.holdUntilMs > o.arrivedMs
    if (e.retry.calls === null && !lostOrRefused && !holding) return
    const now = nowMs()
    if (e.retry.calls !== null) {
      e.retry.calls = e.retry.calls.filter((c) => now - c.arrivedMs < KEPT_MS)
      if (!e.retry.calls.length) e.retry.calls = null
      twice.expire(owner, e, now - KEPT_MS)
    }
    if (e.retry.calls === null && !lostOrRefused && !holding) return
    const x = sentOf(o, operation)
    if (x === null) return
    for (const y of e.retry.calls ?? []) {
      judge(owner, e, y, x)
      judge(owner, e, x, y)
    }
    if (lostOrRefused || holding) {
      const list = (e.retry.calls ??= [])
      list.push(x)
      if (list.length > CALLS_KEPT) list.shift()
    }
  }

  /** An operation called again before the Retry-After of its 503 had passed; then notes a new 503's. */
  function retryAfter(owner: string, e: Entry, o: RequestSeen, operation: Operation): void {
    const w = e.retry.waits[OPERATIONS.indexOf(operation)]!
    if (w.until > o.arrivedMs && o.arrivedMs >= w.since && !stepBetween(e, w.since, o.arrivedMs)) {
      if (!book.again(owner, e, F.ignored_retry_after)) {
        book.first(
          owner,
          e,
          F.ignored_retry_after,
          example(
            owner,
            o.method,
            o.path,
            o.at,
            `${operation} called again ${seconds(o.arrivedMs - w.since)} after a 503 that asked Retry-After: ${w.seconds}`,
          ),
        )
      }
    }
    if (o.status === 503 && o.retryAfter !== null) {
      const asked = Number(o.retryAfter)
      if (Number.isFinite(asked) && asked > 0) {
        const now = nowMs()
        w.since = now
        w.seconds = asked
        w.until = now + asked * 1000
      }
    }
  }

  return { sent, retryAfter, learnt: twice.learnt }
}

export type RetryJudge = ReturnType<typeof retryJudge>
