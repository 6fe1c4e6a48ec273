// Use case: return the sandbox to a fresh start with a scenario, in one transaction (a scenario
// that fails to apply leaves the old state, and the old clock, in place).
import type { Scenario } from '../scenarios/schema.js'
import { applyScenario } from './apply-scenario.js'
import { withClockChange } from './clock.js'
import type { Context } from './context.js'

export function resetSandbox(ctx: Context, scenario: Scenario, name: string): void {
  const { store, clock } = ctx
  // The clock goes back to where a fresh sandbox starts first (real time, or frozen at
  // START_TIME), so the re-seeded state is stamped at the new now; saved, as the wipe forgets it.
  withClockChange(
    ctx,
    () => clock.toStart(),
    () => {
      store.wipe()
      if (clock.frozen()) store.setup.meta.set('clock', clock.state())
      applyScenario(ctx, scenario, name, true)
    },
  )
  store.refreshCaches()
  // The wipe took the stored readiness with it; what is in memory starts again now (and is put
  // back with the clock, should the wipe be lost).
  const undoReadiness = ctx.readiness?.reset(clock.now())
  if (undoReadiness) store.undoIfLost(undoReadiness)
  ctx.onChange?.({ kind: 'clock' })
}
