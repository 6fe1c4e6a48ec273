// What the observers of readiness share: the book they write in, the store and clocks they read,
// and how an example is made (cut, and redacted as the journal is).
import type { Clock, Micros } from '../clock.js'
import type { Store } from '../store/index.js'
import type { Book, Example } from './book.js'

export interface Observing {
  book: Book
  store: Store
  clock: Clock
  /** Monotonic milliseconds: how soon a client came back is its own timing, not the virtual clock's. */
  nowMs: () => number
  /** An example for `owner`'s report (NO_COMPANY: none), cut and redacted, with the wall-clock time now. */
  example(owner: string, method: string, path: string, at: Micros, seen: string): Example
}

/** Where a delivery went, without credentials or query (the journal keeps paths whole). */
export function receiverPath(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return '(unparseable URL)'
  }
}
