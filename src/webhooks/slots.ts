// Counts sends in flight per subscription and per owner, and says how many more may start.
import type { Subscription } from '../store/webhooks.js'
import { MAX_IN_FLIGHT_PER_COMPANY, MAX_IN_FLIGHT_PER_SUBSCRIPTION } from './limits.js'

/** The admin's global subscriptions are one owner among the companies. */
const ownerOf = (sub: Subscription): string => sub.companyId ?? ''

export function createSlots(
  perSubscription = MAX_IN_FLIGHT_PER_SUBSCRIPTION,
  perOwner = MAX_IN_FLIGHT_PER_COMPANY,
) {
  const bySub = new Map<string, number>()
  const byOwner = new Map<string, number>()
  const add = (map: Map<string, number>, key: string, n: number) => {
    const v = (map.get(key) ?? 0) + n
    if (v === 0) map.delete(key)
    else map.set(key, v)
  }
  return {
    /** Sends of this subscription in flight now. */
    held: (sub: Subscription): number => bySub.get(sub.id) ?? 0,
    /** How many more sends this subscription may start now. */
    free: (sub: Subscription): number =>
      Math.max(
        0,
        Math.min(
          perSubscription - (bySub.get(sub.id) ?? 0),
          perOwner - (byOwner.get(ownerOf(sub)) ?? 0),
        ),
      ),
    take(sub: Subscription): void {
      add(bySub, sub.id, 1)
      add(byOwner, ownerOf(sub), 1)
    },
    give(sub: Subscription): void {
      add(bySub, sub.id, -1)
      add(byOwner, ownerOf(sub), -1)
    },
  }
}
