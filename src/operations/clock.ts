// Use cases on the virtual clock. The clock's state is saved in the store, so a restart keeps
// virtual time where it was.
import type { SandboxEvent } from '../domain/types.js'
import { SECOND_US } from '../domain/time.js'
import type { Context } from './context.js'
import { runDue } from './run-due.js'

const save = (ctx: Context) => {
  ctx.store.setup.meta.set('clock', ctx.clock.state())
  ctx.onChange?.({ kind: 'clock' })
}

/** Moves time forward and runs everything that became due, in due order; returns its events. */
export function advanceClock(ctx: Context, seconds: number): SandboxEvent[] {
  ctx.clock.advance(Math.round(seconds * SECOND_US))
  save(ctx)
  return runDue(ctx)
}

export function changeClock(ctx: Context, change: 'freeze' | 'resume' | 'reset'): void {
  ctx.clock[change]()
  save(ctx)
}
