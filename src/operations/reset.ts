// Use case: return the sandbox to a fresh start with a scenario, in one transaction (a scenario
// that fails to apply leaves the old state in place).
import type { Scenario } from '../scenarios/schema.js'
import { applyScenario } from './apply-scenario.js'
import type { Context } from './context.js'

export function resetSandbox(ctx: Context, scenario: Scenario, name: string): void {
  const { store } = ctx
  store.tx(() => {
    store.wipe()
    applyScenario(ctx, scenario, name, true)
  })
  store.refreshCaches()
  ctx.clock.reset()
  ctx.onChange?.({ kind: 'clock' })
}
