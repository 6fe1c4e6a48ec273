// How the report judges what receivers did with correctly signed, fresh deliveries, across the
// whole run (docs/READINESS.md#the-findings): a URL that took any genuine delivery, of any
// company's subscription (a deleted one's included), knows a secret, so its refusals of another
// subscription's are no finding; one that took none refuses genuine deliveries
// (receiver_rejects_valid_signature). A subscription whose receiver took some event types and
// refused another refuses a type it does not handle (receiver_rejects_unknown_type), never a
// signature. Judged when the report is read, over every company's entry (a subscription of the
// admin's serves every company), so that the order deliveries came in does not matter.
import type { Micros } from '../clock.js'
import { ANY, receiverUrl, type Entry, type Example, type Seen } from './entry.js'

/** What receivers took in the run: the URLs that took anything, and by subscription and URL, the types and when last. */
export interface Taken {
  urls: Set<string>
  keys: Map<string, { took: Set<string>; lastTook: Micros }>
}

/** The test message's type: a receiver may refuse it for its type alone, having taken nothing yet. */
const TEST_TYPE = 'webhook.test'

/** What nothing took: the judgement of entries with no refusal needs no more. */
export const NOTHING_TAKEN: Taken = { urls: new Set(), keys: new Map() }

export function taken(entries: Iterable<Entry>): Taken {
  const t: Taken = { urls: new Set(), keys: new Map() }
  for (const e of entries) {
    for (const [key, r] of Object.entries(e.receivers)) {
      if (!r.took.length) continue
      t.urls.add(receiverUrl(key))
      const k = t.keys.get(key) ?? { took: new Set<string>(), lastTook: 0 }
      for (const type of r.took) k.took.add(type)
      k.lastTook = Math.max(k.lastTook, r.lastTook)
      t.keys.set(key, k)
    }
  }
  return t
}

/** Sums `found` into one finding: the counts, and the first example with what the judgement adds. */
function summed(found: { seen: Seen; adds: string }[]): Seen | undefined {
  if (!found.length) return undefined
  const first = found.reduce((a, b) => (b.seen.example.wallAt < a.seen.example.wallAt ? b : a))
  const example: Example = {
    ...first.seen.example,
    seen: `${first.seen.example.seen}${first.adds}`,
  }
  return { count: found.reduce((n, f) => n + f.seen.count, 0), example }
}

/** receiver_rejects_valid_signature in `e`: refusals by receivers whose URL took nothing in the run. */
export function refusingReceivers(e: Entry, t: Taken): Seen | undefined {
  const found: { seen: Seen; adds: string }[] = []
  for (const [key, r] of Object.entries(e.receivers)) {
    if (t.urls.has(receiverUrl(key))) continue
    for (const [type, seen] of Object.entries(r.refused))
      found.push({
        seen,
        adds:
          type === TEST_TYPE
            ? `, and the receiver has taken no delivery in this run (or it refuses event types it does not handle, ${TEST_TYPE} among them: those must get a 2xx too; a charge or transfer event tells the two apart)`
            : ', and the receiver has taken no delivery in this run',
      })
  }
  return summed(found)
}

/**
 * receiver_rejects_unknown_type in `e`: a subscription's refusals of a type, while its receiver
 * took others: one of them after it first refused that type, so that the subscription's secret
 * was still the receiver's then (a receiver given a newer subscription's secret refuses the old
 * one's deliveries of every type from then on, and is no finding).
 */
export function refusedTypes(e: Entry, t: Taken): Seen | undefined {
  const found: { seen: Seen; adds: string }[] = []
  for (const [key, r] of Object.entries(e.receivers)) {
    const k = t.keys.get(key)
    const handled = k ? [...k.took].filter((type) => type !== ANY) : []
    if (!k || !handled.length) continue
    for (const [type, seen] of Object.entries(r.refused)) {
      if (type === ANY || k.took.has(type) || seen.example.wallAt > k.lastTook) continue
      found.push({ seen, adds: `, while it took ${handled.join(', ')} from the same subscription` })
    }
  }
  return summed(found)
}
