// Charge rules: lifetime, scenario rules, and the state machine pending -> paid | cancelled.
import type { Micros } from '../clock.js'
import { conflict } from './errors.js'
import { floorToSecond, SECOND_US } from './time.js'
import type { CancelReason, Charge, ChargeRule, Settings } from './types.js'

export interface ChargeSchedule {
  expiresAt: Micros
  autoPayAt: Micros | null
  autoCancelAt: Micros | null
}

export function firstChargeRule(
  rules: ChargeRule[],
  amount: number,
  description: string | null,
): ChargeRule | undefined {
  return rules.find(
    ({ when }) =>
      (when.amount === undefined || when.amount === amount) &&
      (when.description_contains === undefined ||
        (description ?? '').includes(when.description_contains)),
  )
}

/**
 * Expiry is the creation time truncated to the second plus the lifetime
 * (docs/CONTRACT.md#where-the-contract-is-silent: expiration_date).
 */
export function scheduleCharge(
  createdAt: Micros,
  settings: Settings,
  rule: ChargeRule | undefined,
): ChargeSchedule {
  const after = (s: number | undefined) => (s === undefined ? null : createdAt + s * SECOND_US)
  return {
    expiresAt: floorToSecond(createdAt) + settings.charge_ttl_seconds * SECOND_US,
    autoPayAt: after(rule?.then.auto_pay_after_seconds),
    autoCancelAt: after(rule?.then.auto_cancel_after_seconds),
  }
}

export type DueChargeAction =
  | { kind: 'pay'; at: Micros }
  | { kind: 'cancel'; at: Micros; reason: CancelReason }

/**
 * What happens to a pending charge by `now`: the earliest due instant wins, and expiry wins a tie
 * (a charge is cancelled at its expiration instant, not paid).
 */
export function dueChargeAction(c: Charge, now: Micros): DueChargeAction | null {
  if (c.status !== 'pending') return null
  const candidates: DueChargeAction[] = [{ kind: 'cancel', at: c.expiresAt, reason: 'expired' }]
  if (c.autoCancelAt !== null)
    candidates.push({ kind: 'cancel', at: c.autoCancelAt, reason: 'cancelled' })
  if (c.autoPayAt !== null) candidates.push({ kind: 'pay', at: c.autoPayAt })
  const first = candidates.reduce((a, b) => (b.at < a.at ? b : a))
  return first.at <= now ? first : null
}

export const isExpired = (c: Charge, now: Micros): boolean => now >= c.expiresAt

/** A charge can be paid or cancelled only while pending and not yet past its expiry. */
export function assertPayable(c: Charge, now: Micros): void {
  if (c.status !== 'pending') throw conflict(`Charge is ${c.status}`)
  if (isExpired(c, now)) throw conflict('Charge is expired')
}
