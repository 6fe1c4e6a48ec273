// Use cases that queue behaviour for later calls: transfer outcomes and contract faults.
import { AppError, notFound } from '../domain/errors.js'
import type { PixType, TransferOutcome } from '../domain/types.js'
import type { FaultOperation } from '../store/faults.js'
import { emit, type Context } from './context.js'

/** Queued outcomes, and faults, a company may hold at once; the admin's global ones have their own. */
export const MAX_QUEUED = 1000

const assertCompany = (ctx: Context, companyId: string | null) => {
  if (companyId !== null && !ctx.store.identity.company(companyId)) throw notFound('Company')
}

/** Refuses (422, naming the limit) a queue already holding MAX_QUEUED of the owner's rows. */
const assertRoom = (
  queue: { count(owner: string | null): number },
  what: 'outcomes' | 'faults',
  companyId: string | null,
) => {
  if (queue.count(companyId) < MAX_QUEUED) return
  const whose =
    companyId === null ? `global ${what} (admin, no company_id)` : `${what} queued per company`
  throw new AppError(
    'invalid_input',
    `at most ${MAX_QUEUED} ${whose}: clear them (DELETE /_sandbox/${what}) or let some be used`,
  )
}

export function queueOutcome(
  ctx: Context,
  q: {
    companyId: string | null
    outcome: TransferOutcome
    match: { pix_key?: string; pix_type?: PixType; amount?: number }
    times: number
  },
): number {
  return ctx.store.tx(() => {
    assertCompany(ctx, q.companyId)
    assertRoom(ctx.store.outcomes, 'outcomes', q.companyId)
    const now = ctx.clock.now()
    const id = ctx.store.outcomes.add({
      companyId: q.companyId,
      outcome: q.outcome,
      match: q.match,
      remaining: q.times,
      createdAt: now,
    })
    emit(ctx, 'outcome.queued', now, q.companyId, {
      id,
      ...q.outcome,
      match: q.match,
      times: q.times,
    })
    return id
  })
}

export function injectFault(
  ctx: Context,
  f: {
    companyId: string | null
    operation: FaultOperation
    status: 500 | 501 | 503 | null
    delayMs: number
    times: number | null
    retryAfter: number | null
    after: boolean
    drop: boolean
  },
): number {
  return ctx.store.tx(() => {
    assertCompany(ctx, f.companyId)
    assertRoom(ctx.store.faults, 'faults', f.companyId)
    const now = ctx.clock.now()
    const { companyId, times, ...fault } = f
    const id = ctx.store.faults.add({ ...fault, companyId, remaining: times, createdAt: now })
    emit(ctx, 'fault.injected', now, companyId, {
      id,
      operation: f.operation,
      status: f.status,
      delay_ms: f.delayMs,
      times,
      ...(f.retryAfter !== null && { retry_after: f.retryAfter }),
      ...(f.after && { when: 'after' }),
      ...(f.drop && { drop: true }),
    })
    return id
  })
}
