// What the sandbox has seen of each company's integration: how many times each behaviour of the
// catalog was met and each finding seen (with its first example), since the company was created
// or the sandbox reset. In memory, one entry per company plus one for calls that named no known
// company (entry.ts); recording is a counter bump (no allocation once a finding has its example).
// The recorder (recorder.ts) stores the entries that changed, and the report reads them.
//
// A deleted company's entry stays (`gone`): what a run saw belongs to the run's report, the
// admin's and exec's, even when a tidy suite deletes its tenants (docs/READINESS.md#where-you-see-it),
// and a call still in flight when its tenant went is still recorded. Past GONE_KEPT deleted
// companies, the oldest are folded into one entry of every deleted company, so that a suite making
// and deleting thousands of tenants keeps a bounded record.
import type { Micros } from '../clock.js'
import {
  BEHAVIOURS,
  F,
  FINDINGS,
  type BehaviourId,
  type FindingId,
  severityRank,
  type Severity,
} from './catalog.js'
import {
  CHECKS_KEPT,
  deserialize,
  fold,
  newEntry,
  RECEIVERS_KEPT,
  TYPES_KEPT,
  receiverKey,
  type CheckSeen,
  type Entry,
  type Example,
  type Seen,
  type StoredEntry,
} from './entry.js'
import { both } from './seen.js'
import {
  NOTHING_TAKEN,
  refusedTypes,
  refusingReceivers,
  taken,
  type Taken,
} from './receiver-judgement.js'
import { undecidedSeen } from './retry-state.js'

export { serialize, type CheckSeen, type Entry, type Example } from './entry.js'

/** The owner of what named no known company (a 401 with an unknown client id): the admin's report only. */
export const NO_COMPANY = ''
/** The owner of every deleted company folded together (no company id starts with "*"). */
export const DELETED = '*deleted'
/** Deleted companies whose entry is kept as it is, before the oldest are folded into DELETED's. */
const GONE_KEPT = 64

export interface Report {
  since: Micros
  met: number
  total: number
  behaviours: { id: BehaviourId; met: boolean; count: number; how: string }[]
  findings: { id: FindingId; severity: Severity; count: number; example: Example; advice: string }[]
  checks: CheckSeen[]
}

/**
 * `sinceOf(companyId)`: when a company's record starts (its creation), or undefined when there is
 * no such company (a call recorded after its company was deleted makes no entry).
 * `onDirty`: an entry changed for the first time since it was last stored.
 * `onDropped`: an entry was folded away, and its stored row is to go.
 */
export function createBook(
  sinceOf: (companyId: string) => Micros | undefined,
  onDirty: (owner: string, e: Entry) => void = () => undefined,
  onDropped: (owner: string) => void = () => undefined,
) {
  const entries = new Map<string, Entry>()

  const touch = (owner: string, e: Entry) => {
    if (e.dirty) return
    e.dirty = true
    onDirty(owner, e)
  }

  /** Folds a deleted company's entry into DELETED's, and drops it. */
  function retire(owner: string, e: Entry): void {
    let into = entries.get(DELETED)
    if (!into) entries.set(DELETED, (into = newEntry(e.since)))
    fold(into, e)
    into.gone = true
    touch(DELETED, into)
    entries.delete(owner)
    onDropped(owner)
  }

  /** Every finding of `e`, with the receivers judged across the run (`took`: receiver-judgement.ts). */
  const findingsOf = (e: Entry, took: Taken): (Seen | undefined)[] =>
    e.findings.map((s, i) =>
      i === F.receiver_rejects_valid_signature
        ? both(s, refusingReceivers(e, took))
        : i === F.receiver_rejects_unknown_type
          ? both(s, refusedTypes(e, took))
          : i === F.paid_twice
            ? both(s, undecidedSeen(e.retry))
            : s,
    )

  return {
    /**
     * The owner's entry, made on first need; undefined for a company that does not exist. A
     * deleted company's is still answered (a call of its that was in flight), until a company of
     * the same id is created again.
     */
    entry(owner: string, now: Micros): Entry | undefined {
      const e = entries.get(owner)
      if (e && !(e.gone && owner !== DELETED && sinceOf(owner) !== undefined)) return e
      const since = owner === NO_COMPANY ? now : sinceOf(owner)
      if (since === undefined) return undefined
      if (e) retire(owner, e)
      const made = newEntry(since)
      entries.set(owner, made)
      return made
    },
    /** `e` changed outside the calls below (retry-state.ts's undecided pairs). */
    touched: touch,
    /** Whether `e` is still the owner's entry (not cleared since). */
    holds: (owner: string, e: Entry) => entries.get(owner) === e,
    meet(owner: string, e: Entry, behaviour: number): void {
      e.counts[behaviour]!++
      touch(owner, e)
    },
    /**
     * Counts a finding seen before and answers true; false when it is the first, which the caller
     * then records with its example (`first`): the example is built only once, not per call.
     */
    again(owner: string, e: Entry, finding: number): boolean {
      const seen = e.findings[finding]
      if (!seen) return false
      seen.count++
      touch(owner, e)
      return true
    },
    first(owner: string, e: Entry, finding: number, example: Example): void {
      e.findings[finding] = { count: 1, example }
      touch(owner, e)
    },
    /**
     * A receiver (a subscription's URL) took (`refused` false) or refused a genuine delivery of
     * `type`, at wall-clock time `wallAt`; `example` is made for its first refusal of that type.
     */
    receiver(
      owner: string,
      e: Entry,
      subscriptionId: string,
      url: string,
      type: string,
      refused: boolean,
      wallAt: Micros,
      example: () => Example,
    ): void {
      const key = receiverKey(subscriptionId, url)
      let r = e.receivers[key]
      if (!r) {
        const keys = Object.keys(e.receivers)
        if (keys.length >= RECEIVERS_KEPT) delete e.receivers[keys[0]!]
        r = e.receivers[key] = { took: [], lastTook: 0, refused: {} }
      }
      if (!refused) {
        r.lastTook = Math.max(r.lastTook, wallAt)
        if (!r.took.includes(type) && r.took.length < TYPES_KEPT) r.took.push(type)
      } else {
        const seen = r.refused[type]
        if (seen) seen.count++
        else if (Object.keys(r.refused).length < TYPES_KEPT)
          r.refused[type] = { count: 1, example: example() }
        else return
      }
      touch(owner, e)
    },
    /** The newest receiver check of `check.url` (replacing an older one of it). */
    checked(owner: string, e: Entry, check: CheckSeen): void {
      e.checks = [...e.checks.filter((c) => c.url !== check.url), check].slice(-CHECKS_KEPT)
      touch(owner, e)
    },
    /**
     * The report of one company, or of every company together (undefined: deleted ones, and calls
     * that named none, included); `hows` replace the catalog's (an own report's: own.ts).
     */
    report(owner: string | undefined, now: Micros, hows?: readonly string[]): Report {
      const mine = owner === undefined ? undefined : entries.get(owner)
      const own = owner === undefined ? [...entries.values()] : mine && !mine.gone ? [mine] : []
      const since =
        owner === undefined
          ? (entries.get(NO_COMPANY)?.since ?? now)
          : (own[0]?.since ?? sinceOf(owner) ?? now)
      const behaviours = BEHAVIOURS.map((b, i) => {
        const count = own.reduce((n, e) => n + e.counts[i]!, 0)
        return { id: b.id, met: count > 0, count, how: hows?.[i] ?? b.how }
      })
      // Every company's receivers are read only when these entries hold a refusal to judge.
      const refusals = own.some((e) =>
        Object.values(e.receivers).some((r) => Object.keys(r.refused).length > 0),
      )
      const took = refusals ? taken(entries.values()) : NOTHING_TAKEN
      const seenBy = own.map((e) => findingsOf(e, took))
      const findings: Report['findings'] = []
      FINDINGS.forEach((f, i) => {
        const seen = seenBy.map((s) => s[i]).filter((s): s is Seen => s !== undefined)
        if (!seen.length) return
        const first = seen.reduce((a, b) => (b.example.wallAt < a.example.wallAt ? b : a))
        findings.push({
          id: f.id,
          severity: f.severity,
          count: seen.reduce((n, s) => n + s.count, 0),
          example: first.example,
          advice: f.advice,
        })
      })
      findings.sort(
        (a, b) =>
          severityRank(a.severity) - severityRank(b.severity) ||
          b.count - a.count ||
          a.id.localeCompare(b.id),
      )
      const met = behaviours.filter((b) => b.met).length
      const checks = own.flatMap((e) => e.checks).sort((a, b) => a.wallAt - b.wallAt)
      return { since, met, total: behaviours.length, behaviours, findings, checks }
    },
    /** After loading: the record of calls naming no company starts now, if the store had none. */
    begin(now: Micros): void {
      if (entries.has(NO_COMPANY)) return
      const e = newEntry(now)
      entries.set(NO_COMPANY, e)
      touch(NO_COMPANY, e)
    },
    /** A function that puts the records back as they are now: for a reset whose write may be lost. */
    snapshot(): () => void {
      const saved = [...entries]
      return () => {
        entries.clear()
        for (const [owner, e] of saved) entries.set(owner, e)
      }
    },
    /** Everything cleared (a reset): the record starts again at `since`. */
    reset(since: Micros): void {
      entries.clear()
      const e = newEntry(since)
      entries.set(NO_COMPANY, e)
      touch(NO_COMPANY, e)
    },
    /** A company deleted: its record stays in the run's report; past GONE_KEPT, the oldest are folded. */
    forget(companyId: string): void {
      const e = entries.get(companyId)
      if (!e || e.gone) return
      e.gone = true
      touch(companyId, e)
      const gone = [...entries].filter(([owner, g]) => g.gone && owner !== DELETED)
      for (const [owner, g] of gone.slice(0, Math.max(0, gone.length - GONE_KEPT))) retire(owner, g)
    },
    /** Entries read back from the store. */
    load(rows: { owner: string; since: Micros; data: string }[]): void {
      for (const r of rows) {
        try {
          entries.set(
            r.owner,
            deserialize(r.owner, r.since, JSON.parse(r.data) as Partial<StoredEntry>),
          )
        } catch {
          // A row that cannot be read is dropped rather than stopping the start.
        }
      }
    },
  }
}

export type Book = ReturnType<typeof createBook>
