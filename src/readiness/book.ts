// What the sandbox has seen of each company's integration: how many times each behaviour of the
// catalog was met and each finding seen (with its first example), since the company was created
// or the sandbox reset. In memory, one entry per company plus one for calls that named no known
// company; recording is a counter bump (no allocation once a finding has its example). The
// recorder (recorder.ts) stores the entries that changed, and the report reads them.
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
import { newRetryState, type RetryState } from './retry-state.js'

/** The owner of what named no known company (a 401 with an unknown client id): the admin's report only. */
export const NO_COMPANY = ''

/** One redacted example of a finding: the call (or delivery) and what was seen in it. */
export interface Example {
  method: string
  path: string
  /** The company whose report holds it; null for the admin's report of calls that named none. */
  companyId: string | null
  /** Virtual time, and the wall-clock time beside it (the virtual clock may be hours ahead). */
  at: Micros
  wallAt: Micros
  seen: string
}

/** The newest receiver check of one receiver, as the report shows it: the checks that failed. */
export interface CheckSeen {
  url: string
  at: Micros
  wallAt: Micros
  passed: boolean
  failed: {
    id: string
    expected: string
    status: number | null
    error: string | null
    advice: string | null
  }[]
}

/** Receivers whose newest check an entry keeps. */
const CHECKS_KEPT = 5

/**
 * What a receiver (a URL) did with correctly signed, fresh deliveries: whether it ever took one,
 * and how many it refused (4xx) with the first refusal. A receiver that refused some and took
 * none refuses genuine deliveries (receiver_rejects_valid_signature), whatever the order they
 * came in; one that took any knows a secret, and its refusals are of another subscription's.
 */
export interface ReceiverSeen {
  acked: boolean
  refused: number
  example: Example | null
}
/** Receivers an entry keeps that for. */
const RECEIVERS_KEPT = 20

interface Seen {
  count: number
  example: Example
}

export interface Entry {
  since: Micros
  counts: Uint32Array
  findings: (Seen | undefined)[]
  /** The newest receiver check of each receiver, newest last. */
  checks: CheckSeen[]
  /** By receiver URL: what it did with genuine deliveries. */
  receivers: Record<string, ReceiverSeen>
  /** Changed since it was last stored. */
  dirty: boolean
  /** Not stored: what a later call of the same company is judged against (retries.ts). */
  retry: RetryState
}

export interface Report {
  since: Micros
  met: number
  total: number
  behaviours: { id: BehaviourId; met: boolean; count: number; how: string }[]
  findings: { id: FindingId; severity: Severity; count: number; example: Example; advice: string }[]
  checks: CheckSeen[]
}

const newEntry = (since: Micros): Entry => ({
  since,
  counts: new Uint32Array(BEHAVIOURS.length),
  findings: new Array(FINDINGS.length).fill(undefined),
  checks: [],
  receivers: {},
  dirty: false,
  retry: newRetryState(),
})

/** What is stored of an entry: counts and findings by id, so that a catalog that grows reads old rows. */
export interface StoredEntry {
  behaviours: Record<string, number>
  findings: Record<string, Seen>
  checks?: CheckSeen[]
  receivers?: Record<string, ReceiverSeen>
}

export function serialize(e: Entry): StoredEntry {
  const behaviours: Record<string, number> = {}
  const findings: Record<string, Seen> = {}
  BEHAVIOURS.forEach((b, i) => e.counts[i] && (behaviours[b.id] = e.counts[i]!))
  FINDINGS.forEach((f, i) => e.findings[i] && (findings[f.id] = e.findings[i]!))
  return { behaviours, findings, checks: e.checks, receivers: e.receivers }
}

function deserialize(owner: string, since: Micros, stored: Partial<StoredEntry>): Entry {
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
          companyId: s.example.companyId ?? (owner === NO_COMPANY ? null : owner),
          wallAt: s.example.wallAt ?? s.example.at,
        },
      }
  })
  if (Array.isArray(stored.checks)) e.checks = stored.checks.slice(-CHECKS_KEPT)
  if (stored.receivers && typeof stored.receivers === 'object') e.receivers = stored.receivers
  return e
}

/** receiver_rejects_valid_signature of an entry: its receivers that refused genuine deliveries and took none. */
function refusingReceivers(e: Entry): Seen | undefined {
  let count = 0
  let example: Example | undefined
  for (const r of Object.values(e.receivers)) {
    if (r.acked || r.refused === 0 || !r.example) continue
    count += r.refused
    if (!example || r.example.wallAt < example.wallAt) example = r.example
  }
  return example && { count, example }
}

/**
 * `sinceOf(companyId)`: when a company's record starts (its creation), or undefined when there is
 * no such company (a call recorded after its company was deleted makes no entry).
 * `onDirty`: an entry changed for the first time since it was last stored.
 */
export function createBook(
  sinceOf: (companyId: string) => Micros | undefined,
  onDirty: (owner: string, e: Entry) => void = () => undefined,
) {
  const entries = new Map<string, Entry>()

  const touch = (owner: string, e: Entry) => {
    if (e.dirty) return
    e.dirty = true
    onDirty(owner, e)
  }

  return {
    /** The owner's entry, made on first need; undefined for a company that does not exist. */
    entry(owner: string, now: Micros): Entry | undefined {
      const e = entries.get(owner)
      if (e) return e
      const since = owner === NO_COMPANY ? now : sinceOf(owner)
      if (since === undefined) return undefined
      const made = newEntry(since)
      entries.set(owner, made)
      return made
    },
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
    /** A receiver (`url`) took (`acked`) or refused a genuine delivery; `example` is made for its first refusal. */
    receiver(owner: string, e: Entry, url: string, acked: boolean, example: () => Example): void {
      let r = e.receivers[url]
      if (!r) {
        const urls = Object.keys(e.receivers)
        if (urls.length >= RECEIVERS_KEPT) delete e.receivers[urls[0]!]
        r = e.receivers[url] = { acked: false, refused: 0, example: null }
      }
      if (acked) {
        if (r.acked) return
        r.acked = true
      } else {
        r.refused++
        r.example ??= example()
      }
      touch(owner, e)
    },
    /** The newest receiver check of `check.url` (replacing an older one of it). */
    checked(owner: string, e: Entry, check: CheckSeen): void {
      e.checks = [...e.checks.filter((c) => c.url !== check.url), check].slice(-CHECKS_KEPT)
      touch(owner, e)
    },
    /** The report of one owner, or of all of them together (undefined); `hows` replace the catalog's (an own report's: own.ts). */
    report(owner: string | undefined, now: Micros, hows?: readonly string[]): Report {
      const own =
        owner === undefined
          ? [...entries.values()]
          : [entries.get(owner)].filter((e): e is Entry => e !== undefined)
      const since =
        owner === undefined
          ? (entries.get(NO_COMPANY)?.since ?? now)
          : (own[0]?.since ?? sinceOf(owner) ?? now)
      const behaviours = BEHAVIOURS.map((b, i) => {
        const count = own.reduce((n, e) => n + e.counts[i]!, 0)
        return { id: b.id, met: count > 0, count, how: hows?.[i] ?? b.how }
      })
      const findings: Report['findings'] = []
      FINDINGS.forEach((f, i) => {
        const seen = own
          .map((e) =>
            i === F.receiver_rejects_valid_signature ? refusingReceivers(e) : e.findings[i],
          )
          .filter((s): s is Seen => s !== undefined)
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
    /** A company deleted: its record goes with it. */
    forget(companyId: string): void {
      entries.delete(companyId)
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
