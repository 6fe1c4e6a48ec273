// Use cases on the virtual clock. The clock's state is saved in the store, so a restart keeps
// virtual time where it was; and it changes only as its write does: a write the disk refuses
// (at once, or later at the group commit) leaves the clock as it was, and is answered 503.
import type { SandboxEvent } from '../domain/types.js'
import { SECOND_US } from '../domain/time.js'
import type { Context } from './context.js'
import { runDue } from './run-due.js'

/**
 * Changes the clock, then runs `write` as one transaction: the clock is put back if the write
 * fails at once or its group commit is lost later (reset uses it too).
 */
export function withClockChange(ctx: Context, change: () => void, write: () => void): void {
  const { store, clock } = ctx
  const before = clock.state()
  change()
  try {
    store.tx(write)
  } catch (err) {
    clock.restore(before)
    throw err
  }
  store.undoIfLost(() => clock.restore(before))
}

/** Changes the clock and saves it, as one write. */
function changeSaved(ctx: Context, change: () => void): void {
  withClockChange(ctx, change, () => ctx.store.setup.meta.set('clock', ctx.clock.state()))
  ctx.onChange?.({ kind: 'clock' })
}

/** Moves time forward and runs everything that became due, in due order; returns its events. */
export function advanceClock(ctx: Context, seconds: number): SandboxEvent[] {
  changeSaved(ctx, () => ctx.clock.advance(Math.round(seconds * SECOND_US)))
  return runDue(ctx)
}

export function changeClock(ctx: Context, change: 'freeze' | 'resume' | 'reset'): void {
  changeSaved(ctx, () => ctx.clock[change]())
}
