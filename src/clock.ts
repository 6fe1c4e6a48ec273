// The virtual clock: real time plus an offset, optionally frozen. Every time-based behaviour
// (expiry, automatic payment, settlement, retries) reads it; nothing else calls Date.now().
import { performance } from 'node:perf_hooks'

/** Epoch microseconds: company timestamps show six fractional digits, so milliseconds are not enough. */
export type Micros = number

export interface ClockState {
  offsetUs: Micros
  frozenAtUs: Micros | null
}

export interface Clock {
  /** Virtual now, in epoch microseconds. */
  now(): Micros
  state(): ClockState
  /** Moves virtual time forward (or back, with a negative value). */
  advance(us: Micros): void
  freeze(): void
  resume(): void
  /** Real time, running (offset 0). */
  reset(): void
  /** Where a fresh sandbox's clock starts: real time, or frozen at START_TIME. */
  toStart(): void
  /** True while time stands still. */
  frozen(): boolean
  restore(state: ClockState): void
}

export type RealTime = () => Micros

export const realTime: RealTime = () =>
  Math.round((performance.timeOrigin + performance.now()) * 1000)

/** The clock of a fresh sandbox frozen at `startUs` (START_TIME); otherwise real time. */
export const startState = (startUs: Micros | undefined): ClockState => ({
  offsetUs: 0,
  frozenAtUs: startUs ?? null,
})

/** `start`: the state `toStart()` returns to (START_TIME's), real time by default. */
export function createClock(
  real: RealTime = realTime,
  initial?: ClockState,
  start: ClockState = startState(undefined),
): Clock {
  let offsetUs = initial?.offsetUs ?? 0
  let frozenAtUs = initial?.frozenAtUs ?? null
  const now = () => frozenAtUs ?? real() + offsetUs
  return {
    now,
    state: () => ({ offsetUs, frozenAtUs }),
    advance(us) {
      if (frozenAtUs !== null) frozenAtUs += us
      offsetUs += us
    },
    freeze() {
      if (frozenAtUs === null) frozenAtUs = now()
    },
    resume() {
      // Time resumes from where it was frozen, so nothing due is skipped or replayed.
      if (frozenAtUs !== null) offsetUs = frozenAtUs - real()
      frozenAtUs = null
    },
    reset() {
      offsetUs = 0
      frozenAtUs = null
    },
    toStart() {
      offsetUs = start.offsetUs
      frozenAtUs = start.frozenAtUs
    },
    frozen: () => frozenAtUs !== null,
    restore(state) {
      offsetUs = state.offsetUs
      frozenAtUs = state.frozenAtUs
    },
  }
}

export const SECOND: Micros = 1_000_000

/** A fixed clock for tests: starts at `startUs`, moves only when told. */
export function createManualClock(startUs: Micros): Clock & { set(us: Micros): void } {
  let t = startUs
  const clock = createClock(() => t)
  return { ...clock, set: (us) => (t = us) }
}
