// How long this process's own event loop was held up while a send to a receiver was out: a
// timer repeating every TICK_MS, run only while a send is under way, adds up how late it fired.
// A busy or starved sandbox reads a receiver's answer late, and that lateness is not the
// receiver's (docs/READINESS.md, receiver_slow). It undercounts a stall by at most a tick (the
// timer was not yet due when it began) and JITTER_MS: a timer late by less is the timer's own
// jitter (under a millisecond a tick idle, a few on a loaded machine), which summed over a 5 s
// wait would otherwise take a tenth of a second or more from a slow receiver's time.

const TICK_MS = 50
const JITTER_MS = 5

/** Milliseconds of lateness added up while the timer ran. */
let held = 0
let due = 0
let timer: NodeJS.Timeout | undefined
let open = 0

function arm(): void {
  due = performance.now() + TICK_MS
  timer = setTimeout(tick, TICK_MS)
  timer.unref()
}

function tick(): void {
  held += lateness()
  arm()
}

const lateness = () => Math.max(0, performance.now() - due - JITTER_MS)
/** Lateness so far, counting a tick that is due and has not fired yet (the loop is held up now). */
const heldNow = () => held + (timer ? lateness() : 0)

export interface StallSpan {
  /** Wall milliseconds since the span began. */
  wall(): number
  /** Milliseconds of it the event loop was held up, so far. */
  stalled(): number
  /** Ends the span, answering `stalled()`; later calls answer the same. */
  end(): number
}

export function stallSpan(): StallSpan {
  if (open++ === 0) arm()
  const started = performance.now()
  const from = heldNow()
  let ended: number | undefined
  const stalled = () => ended ?? heldNow() - from
  return {
    wall: () => performance.now() - started,
    stalled,
    end() {
      if (ended !== undefined) return ended
      ended = stalled()
      if (--open === 0) {
        held = heldNow()
        clearTimeout(timer)
        timer = undefined
      }
      return ended
    },
  }
}

/**
 * A send's time limit on the receiver's own time: AbortSignal.timeout(limitMs), extended by as
 * much as the sandbox's own event loop was held up meanwhile (again, for a stall during the
 * extension), so that a stall of the sandbox's cannot run the receiver's time out while its
 * answer waits unread; at most to twice `limitMs` of wall time, so that a sandbox held up most
 * of the time still gives up. `done()` stops it once the send is over.
 */
export function ownTimeout(
  limitMs: number,
  span: StallSpan,
): { signal: AbortSignal; done(): void } {
  const controller = new AbortController()
  const limit = AbortSignal.timeout(limitMs)
  let extension: NodeJS.Timeout | undefined
  let givenBack = 0
  // Timers run before the answers waiting to be read: after a stall the limit fires first, and
  // an extension gives the answer its turn.
  const check = () => {
    const stalled = span.stalled()
    const extra = stalled - givenBack
    givenBack = stalled
    const left = 2 * limitMs - span.wall()
    if (extra > 0 && left > 0) {
      extension = setTimeout(check, Math.min(extra, left))
      extension.unref()
    } else controller.abort(limit.reason)
  }
  limit.addEventListener('abort', check, { once: true })
  return {
    signal: controller.signal,
    done: () => {
      limit.removeEventListener('abort', check)
      clearTimeout(extension)
    },
  }
}
