// What is stored of a readiness entry (book.ts), bounded: the readiness table refuses a row over
// 64 KiB (migration 007), and one company's entry past it made every flush fail, everyone's with
// it (issue 43).
import { serialize, type Entry } from './book.js'

/** The most an entry's stored text may hold: the readiness table's CHECK on a row (migration 007). */
export const MAX_STORED = 64 * 1024

/**
 * What is stored of an entry, as text of at most MAX_STORED characters. Receivers' URLs and
 * checks' texts can take an entry past it (20 receivers of 2,048-character URLs, five checks):
 * the entry then forgets, until it fits, its oldest receiver checks, then the receivers that
 * took deliveries and refused none, then its oldest receivers, and last the texts of its
 * findings' examples. Counts and findings are kept whatever else goes.
 */
export function storedText(e: Entry): string {
  let text = JSON.stringify(serialize(e))
  const measure = () => void (text = JSON.stringify(serialize(e)))
  while (text.length > MAX_STORED && e.checks.length > 0) {
    e.checks = e.checks.slice(1)
    measure()
  }
  for (const refusedNone of [true, false]) {
    for (const url of Object.keys(e.receivers)) {
      if (text.length <= MAX_STORED) break
      const r = e.receivers[url]!
      if (refusedNone && Object.keys(r.refused).length > 0) continue
      delete e.receivers[url]
      measure()
    }
  }
  if (text.length > MAX_STORED) {
    for (const seen of e.findings) if (seen) seen.example = { ...seen.example, seen: '', path: '' }
    measure()
  }
  return text
}
