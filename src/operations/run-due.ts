// Runs every piece of time-based work that is due at `now`: charge expiry, automatic payment
// and cancellation, transfer settlement. Work happens at its own due instant, in due order, so
// the same start state always produces the same events.
import type { Micros } from '../clock.js'
import { dueChargeAction } from '../domain/charge.js'
import type { SandboxEvent } from '../domain/types.js'
import { cancelCharge } from './charge-transitions.js'
import type { Context } from './context.js'
import { payChargeAsBank } from './receive-pix.js'
import { settleTransferNow } from './settle-transfer.js'

const BATCH = 200

interface Job {
  id: string
  at: Micros
  run: () => void
  /** An automatic payment names a fake payer. */
  needsFakes: boolean
}

function dueJobs(ctx: Context, now: Micros): Job[] {
  const jobs: Job[] = []
  for (const c of ctx.store.charges.due(now, BATCH)) {
    const action = dueChargeAction(c, now)
    if (!action) continue
    const run =
      action.kind === 'pay'
        ? () => void payChargeAsBank(ctx, c.id, ctx.fakes.payer(), undefined, action.at)
        : () => void cancelCharge(ctx, c.id, action.reason, action.at)
    jobs.push({ id: c.id, at: action.at, run, needsFakes: action.kind === 'pay' })
  }
  for (const t of ctx.store.transfers.due(now, BATCH)) {
    const at = t.settleAt!
    const run = () =>
      void settleTransferNow(ctx, t.id, t.finalStatus ?? 'success', t.finalMessage ?? undefined, at)
    jobs.push({ id: t.id, at, run, needsFakes: false })
  }
  return jobs.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
}

/**
 * Returns the events the due work produced. A job that fails is reported and not retried here.
 * When due work needs fake payers that are not loaded yet, nothing runs: loading starts, and
 * the next run does it all, in order (callers that cannot wait await `fakes.ready()` first).
 */
export function runDue(
  ctx: Context,
  now: Micros = ctx.clock.now(),
  onError?: (id: string, err: unknown) => void,
): SandboxEvent[] {
  const fromSeq = ctx.store.events.lastSeq()
  const failed = new Set<string>()
  let ran = false
  for (;;) {
    const jobs = dueJobs(ctx, now).filter((j) => !failed.has(j.id))
    if (jobs.length === 0) break
    if (!ctx.fakes.loaded && jobs.some((j) => j.needsFakes)) {
      void ctx.fakes.ready()
      break
    }
    ran = true
    for (const job of jobs) {
      try {
        job.run()
      } catch (err) {
        failed.add(job.id)
        onError?.(job.id, err)
      }
    }
  }
  return ran ? ctx.store.events.list({ afterSeq: fromSeq, limit: 1_000_000 }) : []
}
