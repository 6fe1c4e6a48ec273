// One owner's record in the readiness book (book.ts): what it met and was found doing, the
// receivers its deliveries reached, and how it is stored (JSON by id, so that a catalog that
// grows reads old rows) and folded into the record of deleted companies (a run's report keeps
// what a deleted tenant did: docs/READINESS.md#where-you-see-it).
import type { Micros } from '../clock.js'
import { BEHAVIOURS, FINDINGS } from './catalog.js'
import { newRetryState, undecidedSeen, type RetryState } from './retry-state.js'
import { both, type CheckSeen, type Example, type Seen } from './seen.js'

export type { CheckSeen, Example, Seen } from './seen.js'

/**
 * What a receiver (one subscription's URL) did with correctly signed, fresh deliveries: the event
 * types it took (2xx) and when it last took one (wall clock), and its refusals by event type,
 * each with its first example. The report judges them across the run (receiver-judgement.ts). A
 * type of `ANY` stands for a type not known (a row stored before types were kept).
 */
export interface ReceiverSeen {
  took: string[]
  lastTook: Micros
  refused: Record<string, Seen>
}
export const ANY = '*'
/** Event types kept per receiver, taken and refused each: the sandbox sends a handful. */
export const TYPES_KEPT = 16

/** Receivers whose newest check an entry keeps, and receivers it keeps what they did for. */
export const CHECKS_KEPT = 5
export const RECEIVERS_KEPT = 32

export interface Entry {
  since: Micros
  counts: Uint32Array
  findings: (Seen | undefined)[]
  /** The newest receiver check of each receiver, newest last. */
  checks: CheckSeen[]
  /** By `receiverKey()`: what the receiver did with genuine deliveries. */
  receivers: Record<string, ReceiverSeen>
  /** Its company was deleted: it stays in the report of every company (the run's). */
  gone: boolean
  /** Changed since it was last stored. */
  dirty: boolean
  /** Not stored: what a later call of the same company is judged against (retries.ts). */
  retry: RetryState
}

/** A receiver's key in an entry: the subscription (none for rows stored before) and where it sends. */
export const receiverKey = (subscriptionId: string, url: string) => `${subscriptionId} ${url}`
/** The URL of a receiver's key (no URL holds a space: receiverPath() encodes them). */
export const receiverUrl = (key: string) => key.slice(key.indexOf(' ') + 1)

export const newEntry = (since: Micros): Entry => ({
  since,
  counts: new Uint32Array(BEHAVIOURS.length),
  findings: new Array(FINDINGS.length).fill(undefined),
  checks: [],
  receivers: {},
  gone: false,
  dirty: false,
  retry: newRetryState(),
})

/** What is stored of an entry. */
export interface StoredEntry {
  behaviours: Record<string, number>
  findings: Record<string, Seen>
  checks?: CheckSeen[]
  /** Before event types were kept: `{acked, refused, example}` by URL. */
  receivers?: Record<string, ReceiverSeen | { acked: boolean; refused: number; example: Example }>
  gone?: boolean
}

export function serialize(e: Entry): StoredEntry {
  const behaviours: Record<string, number> = {}
  const findings: Record<string, Seen> = {}
  BEHAVIOURS.forEach((b, i) => e.counts[i] && (behaviours[b.id] = e.counts[i]!))
  FINDINGS.forEach((f, i) => e.findings[i] && (findings[f.id] = e.findings[i]!))
  // Pairs still waiting for a webhook count as paid_twice meanwhile (paid-twice.ts).
  const paid = both(findings.paid_twice, undecidedSeen(e.retry))
  if (paid) findings.paid_twice = paid
  return { behaviours, findings, checks: e.checks, receivers: e.receivers, gone: e.gone }
}

/** A receiver as stored, in either shape; null when it cannot be read. */
function receiverOf(stored: unknown): ReceiverSeen | null {
  if (stored === null || typeof stored !== 'object') return null
  const r = stored as Partial<ReceiverSeen> & { acked?: unknown; example?: Example | null }
  if (Array.isArray(r.took) && r.refused && typeof r.refused === 'object')
    return {
      took: r.took.slice(0, TYPES_KEPT),
      lastTook: typeof r.lastTook === 'number' ? r.lastTook : 0,
      refused: r.refused,
    }
  const refused = typeof r.refused === 'number' && r.refused > 0 && r.example ? r.refused : 0
  return {
    took: r.acked === true ? [ANY] : [],
    lastTook: 0,
    refused: refused ? { [ANY]: { count: refused, example: r.example! } } : {},
  }
}

export function deserialize(owner: string, since: Micros, stored: Partial<StoredEntry>): Entry {
  const e = newEntry(since)
  BEHAVIOURS.forEach((b, i) => {
    const n = stored.behaviours?.[b.id]
    if (typeof n === 'number' && n > 0) e.counts[i] = Math.min(n, 0xffffffff)
  })
  FINDINGS.forEach((f, i) => {
    const s = stored.findings?.[f.id]
    // Examples stored before they carried the company and the wall-clock time: the owner's, and the virtual time.
    if (s && typeof s.count === 'number' && s.example)
      e.findings[i] = {
        count: s.count,
        example: {
          ...s.example,
          companyId: s.example.companyId ?? (owner === '' ? null : owner),
          wallAt: s.example.wallAt ?? s.example.at,
        },
      }
  })
  if (Array.isArray(stored.checks)) e.checks = stored.checks.slice(-CHECKS_KEPT)
  if (stored.receivers && typeof stored.receivers === 'object') {
    for (const [key, r] of Object.entries(stored.receivers).slice(-RECEIVERS_KEPT)) {
      const read = receiverOf(r)
      // A key stored before subscriptions were kept is a bare URL: of no known subscription.
      if (read) e.receivers[key.includes(' ') ? key : receiverKey('', key)] = read
    }
  }
  e.gone = stored.gone === true
  return e
}

const earlier = (a: Seen | undefined, b: Seen): Seen => both(a, { ...b })!

/** Folds `from` into `into` (the record of deleted companies): counts add up, first examples stay first. */
export function fold(into: Entry, from: Entry): void {
  from.counts.forEach((n, i) => (into.counts[i] = Math.min(into.counts[i]! + n, 0xffffffff)))
  from.findings.forEach((s, i) => s && (into.findings[i] = earlier(into.findings[i], s)))
  into.checks = [...into.checks, ...from.checks]
    .sort((a, b) => a.wallAt - b.wallAt)
    .slice(-CHECKS_KEPT)
  for (const [key, r] of Object.entries(from.receivers)) {
    const mine = into.receivers[key]
    if (!mine) {
      const keys = Object.keys(into.receivers)
      if (keys.length >= RECEIVERS_KEPT) delete into.receivers[keys[0]!]
      into.receivers[key] = { took: [...r.took], lastTook: r.lastTook, refused: { ...r.refused } }
      continue
    }
    mine.lastTook = Math.max(mine.lastTook, r.lastTook)
    for (const t of r.took)
      if (!mine.took.includes(t) && mine.took.length < TYPES_KEPT) mine.took.push(t)
    for (const [t, s] of Object.entries(r.refused))
      if (mine.refused[t] || Object.keys(mine.refused).length < TYPES_KEPT)
        mine.refused[t] = earlier(mine.refused[t], s)
  }
}
