// Readiness as calls are answered and deliveries acknowledged: turns what the HTTP layer
// (requests.ts, retries.ts) and the webhook worker and receiver check (receivers.ts) saw into behaviours met
// and findings (catalog.ts), per company (book.ts), and keeps them with the rest of the state.
// Recording is in memory and O(1) per call, after the answer; a file store gets what changed at
// most once a second, in a transaction of its own or the group commit under way, never in the
// call's own: a call that wrote nothing still writes nothing, and a kill -9 loses at most the
// last second of readiness, never the store's integrity.
import { realTime, type Clock, type Micros } from '../clock.js'
import type { Store } from '../store/index.js'
import { isUnwritable } from '../store/write-health.js'
import { createBook, NO_COMPANY, type Entry, type Example, type Report } from './book.js'
import { ANSWER_MARGIN_MS, inFlight, type Flying } from './in-flight.js'
import { ownHows, type Own } from './own.js'
import { receiverObserver } from './receivers.js'
import { requestObserver, type KeyOwner } from './requests.js'
import { retryJudge } from './retries.js'
import type { RequestSeen } from './request-seen.js'
import { addStep, newSteps } from './retry-state.js'
import { storedText } from './stored-text.js'

export { CONTRACT_PREFIX } from './requests.js'
export type { RequestSeen } from './request-seen.js'
export { RETRY_WINDOW_MS } from './retries.js'
export type { AttemptSeen } from './receivers.js'
export { SLOW_RECEIVER_MS } from './slow-receiver.js'
export type { Own } from './own.js'
export type { Flying } from './in-flight.js'

/** An example's path and text at most (ours name two transaction ids and the times between). */
const MAX_TEXT = 400
const FLUSH_MS = 1000
const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}...` : text)

export interface ReadinessDeps {
  store: Store
  clock: Clock
  /** Whether the store is a file: then what changed is stored every second. */
  persistent: boolean
  /** The journal's redaction of a text (secret names, whsec_ values, the admin token). */
  redact: (text: string) => string
  /** Monotonic milliseconds (performance.now()); tests move it. */
  nowMs?: () => number
  /** The company and environment of a client id and secret, the secret checked (operations/authenticate.ts); none by default. */
  keyOwner?: KeyOwner
  /** Told when storing failed for another reason than a full disk. */
  onError?: (err: unknown) => void
  /** The receiver_slow threshold (SLOW_RECEIVER_MS by default); tests lower it. */
  slowReceiverMs?: number
}

export function createReadiness(deps: ReadinessDeps) {
  const { store, clock } = deps
  const nowMs = deps.nowMs ?? (() => performance.now())
  const dirty: [string, Entry][] = []
  /** Owners whose rows are to go (folded into the record of deleted companies). */
  const dropped: string[] = []
  const book = createBook(
    (companyId) => store.identity.company(companyId)?.createdAt,
    (owner, e) => deps.persistent && dirty.push([owner, e]),
    (owner) => deps.persistent && dropped.push(owner),
  )
  book.load(deps.persistent ? store.readiness.all() : [])
  book.begin(clock.now())

  const example = (
    owner: string,
    method: string,
    path: string,
    at: Micros,
    seen: string,
  ): Example => ({
    method,
    path: deps.redact(cut(path)),
    companyId: owner === NO_COMPANY ? null : owner,
    at,
    wallAt: realTime(),
    seen: deps.redact(cut(seen)),
  })
  const observing = { book, store, clock, nowMs, example }
  /** Control calls of the admin token that changed something: a test's steps, for every company. */
  const adminSteps = newSteps()
  const retries = retryJudge(observing, adminSteps)
  const observe = requestObserver(observing, retries, deps.keyOwner ?? (() => undefined))
  const flights = inFlight(nowMs)
  const request = (o: RequestSeen): void => {
    if (o.held && o.companyId !== null) flights.released(o.companyId)
    observe(o)
  }
  const { attempt, checked } = receiverObserver(observing, retries.learnt, deps.slowReceiverMs)

  /**
   * Stores every entry that changed, each on its own (one that fails does not keep the others
   * from being stored); what a full disk refused is tried again at the next flush, what failed
   * otherwise once it changes again (not every second).
   */
  function flush(): void {
    if ((!dirty.length && !dropped.length) || !store.db.open) return
    const batch = dirty.splice(0)
    const gone = dropped.splice(0)
    const again = (from = 0) => {
      for (const [owner, e] of batch.slice(from)) {
        if (book.holds(owner, e) && !e.dirty) {
          e.dirty = true
          dirty.push([owner, e])
        }
      }
    }
    // Rows dropped first: an owner dropped and made again (a company created anew) is put back below.
    if (gone.length) {
      try {
        store.tx(() => {
          for (const owner of gone) store.readiness.remove(owner)
        })
      } catch (err) {
        dropped.push(...gone)
        again()
        if (!isUnwritable(err)) deps.onError?.(err)
        return
      }
    }
    for (const [i, [owner, e]] of batch.entries()) {
      if (!book.holds(owner, e)) continue
      e.dirty = false
      try {
        store.tx(() => store.readiness.put(owner, e.since, storedText(e)))
      } catch (err) {
        if (!isUnwritable(err)) {
          deps.onError?.(err)
          continue
        }
        again(i)
        return
      }
    }
    store.pendingCommit()?.catch(() => {
      dropped.push(...gone)
      again()
    })
  }

  const timer = deps.persistent ? setInterval(flush, FLUSH_MS) : undefined
  timer?.unref()

  return {
    request,
    attempt,
    checked,
    /**
     * A control call that changed something was answered (`companyId`: of that company's
     * credentials; null: the admin token's): a test's step, which no retry loop takes.
     */
    controlled(companyId: string | null, arrivedMs: number): void {
      if (companyId === null) return addStep(adminSteps, arrivedMs)
      const e = book.entry(companyId, clock.now())
      if (e) addStep((e.retry.steps ??= newSteps()), arrivedMs)
    },
    /** A fault holds one of the company's calls `delayMs`: its retries may be answered before it is. */
    held(companyId: string, delayMs: number): void {
      flights.held(companyId, delayMs)
      const e = book.entry(companyId, clock.now())
      if (e)
        e.retry.holdUntilMs = Math.max(e.retry.holdUntilMs, nowMs() + delayMs + ANSWER_MARGIN_MS)
    },
    /** The contract calls in flight (in-flight.ts): counted by the HTTP layer, waited for by `exec`. */
    flights,
    /**
     * The report of a company, or of every company and of calls that named none (undefined);
     * `own`: the company's credential its hows name (own.ts), for its own report. With it, the
     * calls of that scope still being processed, which it cannot show yet.
     */
    report: (companyId?: string, own?: Own): Report & { inFlight: Flying } => ({
      ...book.report(companyId, clock.now(), own && ownHows(own)),
      inFlight: flights.now(companyId),
    }),
    /**
     * The sandbox was reset: everything starts again now (the store's rows went with the wipe).
     * Returns what undoes it, should the reset's write be lost (a full disk at its commit).
     */
    reset(since: Micros): () => void {
      const restore = book.snapshot()
      const unsaved = dirty.splice(0)
      const undropped = dropped.splice(0)
      book.reset(since)
      return () => {
        restore()
        dirty.splice(0, dirty.length, ...unsaved)
        dropped.splice(0, dropped.length, ...undropped)
      }
    },
    /** A company was deleted: what it did stays in the run's report (book.ts). */
    forget: (companyId: string) => book.forget(companyId),
    flush,
    /** Stores what is left and stops the timer; before the store closes. */
    close(): void {
      if (timer) clearInterval(timer)
      flush()
    },
  }
}

export type Readiness = ReturnType<typeof createReadiness>
