// When a receiver is slow (receiver_slow, docs/READINESS.md): judged on the time it had, the
// wall time of the attempt less the time the sandbox's own event loop was held up meanwhile
// (webhooks/stall.ts). A loaded machine or a busy test process reads a quick answer late, and a
// report that blames the user's receiver for it cries wolf. The wall time is still what the
// attempt records and shows.

/** A received delivery (or an attempt of the receiver check) slower than this is slow. */
export const SLOW_RECEIVER_MS = 5000
/**
 * A timeout is the receiver's when it had at least this share of the threshold to itself. A
 * send's limit is on the receiver's own time (webhooks/stall.ts), so a timeout has had all of it
 * (the check's 5 s, a delivery's 15 s), give or take a tick of the stall measured; but a sandbox
 * held up most of the time gives up after twice the limit of wall time, and then it cannot tell
 * whose the wait was.
 */
const TIMEOUT_SHARE = 0.9

export interface Timed {
  /** Wall time from the send to the answer, or to giving up. */
  ms: number
  /** How much of it the sandbox's own event loop was held up. */
  stalledMs: number
  /** No answer came within the attempt's limit. */
  timedOut: boolean
}

export function isSlow(t: Timed, slowMs: number): boolean {
  const own = t.ms - t.stalledMs
  return t.timedOut ? own >= slowMs * TIMEOUT_SHARE : own > slowMs
}

const seconds = (ms: number) => (ms / 1000).toFixed(1)

/** How long the attempt took, for an example: the wall time, and the sandbox's part in it when it had one worth saying. */
export function timeTaken(t: Pick<Timed, 'ms' | 'stalledMs'>): string {
  const held =
    t.stalledMs >= 100 ? ` (the sandbox was held up ${seconds(t.stalledMs)} s of it)` : ''
  return `${seconds(t.ms)} s${held}`
}
