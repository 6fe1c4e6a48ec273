// Use cases on a user: its Providers and its balance (set through an adjustment entry).
import { AppError, notFound } from '../domain/errors.js'
import type { Direction, Provider } from '../domain/types.js'
import { emit, moveMoney, type Context } from './context.js'

/** The company a user belongs to; 404 when unknown or outside `companyId`'s scope. */
export function userCompany(ctx: Context, userId: string, scope?: string): string {
  const companyId = ctx.store.identity.userCompany(userId)
  if (companyId === undefined || (scope !== undefined && scope !== companyId))
    throw notFound('User')
  return companyId
}

export function setProviders(
  ctx: Context,
  userId: string,
  change: Partial<Record<Direction, Provider | null>>,
): void {
  const { store } = ctx
  store.tx(() => {
    const companyId = userCompany(ctx, userId)
    for (const direction of ['in', 'out'] as const) {
      if (direction in change)
        store.identity.setProvider(userId, direction, change[direction] ?? null)
    }
    emit(ctx, 'user.providers_changed', ctx.clock.now(), companyId, { user_id: userId, ...change })
  })
}

export function setBalance(ctx: Context, userId: string, amount: number, scope?: string): number {
  const { store } = ctx
  return store.tx(() => {
    const companyId = userCompany(ctx, userId, scope)
    const current = store.ledger.balance(userId) ?? 0
    if (amount === current) return current
    const balance = moveMoney(
      ctx,
      companyId,
      userId,
      amount - current,
      'adjustment',
      null,
      ctx.clock.now(),
    )
    if (balance === null) throw new AppError('internal')
    return balance
  })
}
