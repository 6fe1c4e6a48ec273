// What a company's entry keeps to judge calls sent again (retries.ts): its recent calls that may
// be judged, the control calls that mark a test's steps, a 503's Retry-After per operation, and
// until when a fault holds one of its calls, when a transfer's outcome reached the client. In
// memory only: none of it is stored (but undecided pairs, stored as paid_twice meanwhile).
import type { Micros } from '../clock.js'
import type { Example, Seen } from './seen.js'

export type Operation = 'charge' | 'transfer' | 'company'
export const OPERATIONS: readonly Operation[] = ['charge', 'transfer', 'company']

/** Calls remembered per company, and control calls (test steps) per company and for the admin. */
export const CALLS_KEPT = 32
const STEPS_KEPT = 32

/** A charge or transfer call as its judgement keeps it. */
export interface Sent {
  operation: Operation
  /** Same client, operation, amount and key: what pays the same receiver the same money. */
  pays: string
  /** And the same description: the same transfer. */
  same: string
  arrivedMs: number
  /** When its answer was lost (performance.now()); -1 when it was not. */
  lostMs: number
  /** How long before lostMs it may have been lost (a client's close, seen a moment later). */
  lostSlackMs: number
  /** How it was lost, in words ('a 500', ...). */
  lost: string
  /** It debited the balance (a transfer that went through as success or pending). */
  debited: boolean
  transactionId: string | null
  /** A refusal that cannot change by retrying ('a 501', ...); null otherwise. */
  refused: string | null
  answeredMs: number
  /** The status it was answered. */
  status: number
  at: Micros
  method: string
  path: string
  /** Findings already counted with this call as the one sent again (a bit per finding). */
  counted: number
}

/**
 * Two payouts of the same amount to the same key that both went through, the first's answer lost
 * and the second with another description: paid_twice, unless the first's settling webhook had
 * reached the client's receiver before the second was sent (then paid_twice_unconfirmed). Kept
 * until that webhook's acknowledgement is seen (it may come after the second: a receiver answers
 * once it has told its client), or until the pair is forgotten; meanwhile counted as paid_twice.
 */
export interface Undecided {
  /** The first transfer's. */
  transactionId: string
  /** When the second arrived (performance.now()). */
  arrivedMs: number
  /** The example as paid_twice. */
  sure: Example
  /** The example as paid_twice_unconfirmed, `ms` after the webhook reached the receiver. */
  unsure: (ms: number) => Example
}

/** undecided pairs as the report counts them meanwhile (paid_twice); undefined when none. */
export function undecidedSeen(r: RetryState): Seen | undefined {
  const list = r.undecided
  if (!list?.length) return undefined
  const first = list.reduce((a, b) => (b.sure.wallAt < a.sure.wallAt ? b : a))
  return { count: list.length, example: first.sure }
}

/** Settling webhooks acknowledged, remembered per company. */
const LEARNT_KEPT = 64

/**
 * A transfer's settling webhook, sent at `ms`, was acknowledged (the first acknowledgement counts);
 * answers when its client could first know the outcome.
 */
export function learn(r: RetryState, transactionId: string, ms: number): number {
  const learnt = (r.learnt ??= new Map())
  const known = learnt.get(transactionId)
  if (known !== undefined) return known
  if (learnt.size >= LEARNT_KEPT) learnt.delete(learnt.keys().next().value!)
  learnt.set(transactionId, ms)
  return ms
}

/** A ring of the times (performance.now()) of recent control calls that changed something. */
export interface Steps {
  times: Float64Array
  next: number
}

export const newSteps = (): Steps => ({
  times: new Float64Array(STEPS_KEPT).fill(-Infinity),
  next: 0,
})

export function addStep(s: Steps, ms: number): void {
  s.times[s.next] = ms
  s.next = (s.next + 1) % STEPS_KEPT
}

/** A step strictly between the two instants. */
export function stepWithin(s: Steps | null, from: number, to: number): boolean {
  if (s === null) return false
  for (let i = 0; i < STEPS_KEPT; i++) if (s.times[i]! > from && s.times[i]! < to) return true
  return false
}

/** A 503's Retry-After: calls of its operation from `since` until `until` came back too soon. */
export interface Wait {
  since: number
  until: number
  seconds: number
}

export interface RetryState {
  calls: Sent[] | null
  steps: Steps | null
  /**
   * By transaction id: performance.now() when a receiver of the company acknowledged the
   * transfer's settling webhook (transfer.succeeded or transfer.failed): from then on its client
   * could know the outcome. The newest LEARNT_KEPT only.
   */
  learnt: Map<string, number> | null
  undecided: Undecided[] | null
  /** performance.now() until which a fault holds (or may hold) one of the company's calls. */
  holdUntilMs: number
  /** Per operation, in OPERATIONS order. */
  waits: Wait[]
}

export const newRetryState = (): RetryState => ({
  calls: null,
  steps: null,
  learnt: null,
  undecided: null,
  holdUntilMs: 0,
  waits: OPERATIONS.map(() => ({ since: 0, until: 0, seconds: 0 })),
})
