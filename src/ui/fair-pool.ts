// What the dashboard keeps per person (sessions, live streams), bounded so that no tenant can
// take another's place: each owner (a company, or the admin) holds at most `perOwner`, and the
// companies share `total`, which bounds the memory whatever the number of companies. The admin
// is outside the shared total, so nothing a company does can end or refuse the admin's. When the
// total is full, a newcomer takes the place of the oldest entry of the owner holding the most,
// but only if that owner holds at least two more than the newcomer's: a company can lose its
// place only to one holding fewer, and the move never swings back (docs/decisions/2026-11-23-dashboard-sessions.md).

export const ADMIN_OWNER = 'admin'
export const companyOwner = (companyId: string) => `company ${companyId}`

export interface FairLimits {
  perOwner: number
  /** Shared by every owner but the admin. */
  total: number
  /**
   * When the newcomer's owner is full, or the total is full and nobody holds two more than the
   * newcomer's owner: end that owner's oldest entry (`evict-own`; if it holds none, the oldest of
   * the owner holding the most), or refuse the newcomer (`refuse`).
   */
  whenFull: 'evict-own' | 'refuse'
}

export function createFairPool<V>(limits: FairLimits) {
  const entries = new Map<string, { owner: string; value: V }>()
  // Each owner's keys, oldest first (a Set keeps insertion order).
  const byOwner = new Map<string, Set<string>>()
  let shared = 0

  const countOf = (owner: string) => byOwner.get(owner)?.size ?? 0
  const remove = (key: string): V | undefined => {
    const entry = entries.get(key)
    if (!entry) return undefined
    entries.delete(key)
    const keys = byOwner.get(entry.owner)!
    keys.delete(key)
    if (keys.size === 0) byOwner.delete(entry.owner)
    if (entry.owner !== ADMIN_OWNER) shared--
    return entry.value
  }
  const removeOldest = (owner: string): V => remove(byOwner.get(owner)!.values().next().value!)!
  /** The company holding the most (the first to arrive among equals). Runs only when the total is full. */
  const largest = (): string => {
    let best = ''
    let most = 0
    for (const [owner, keys] of byOwner) {
      if (owner !== ADMIN_OWNER && keys.size > most) [best, most] = [owner, keys.size]
    }
    return best
  }

  return {
    get: (key: string): V | undefined => entries.get(key)?.value,
    /** Removes an entry; answers its value, or undefined when it was not (or no longer) there. */
    delete: remove,
    countOf,
    get size() {
      return entries.size
    },
    *values(): IterableIterator<V> {
      for (const entry of entries.values()) yield entry.value
    },

    /** Adds an entry, making room as the limits say. Answers the values evicted to make room, or null when refused (nothing changed). */
    add(key: string, owner: string, value: V): V[] | null {
      const evicted: V[] = []
      remove(key)
      if (countOf(owner) >= limits.perOwner) {
        if (limits.whenFull === 'refuse') return null
        evicted.push(removeOldest(owner))
      } else if (owner !== ADMIN_OWNER && shared >= limits.total) {
        const big = largest()
        if (countOf(big) >= countOf(owner) + 2) evicted.push(removeOldest(big))
        else if (limits.whenFull === 'refuse') return null
        else evicted.push(removeOldest(countOf(owner) > 0 ? owner : big))
      }
      entries.set(key, { owner, value })
      let keys = byOwner.get(owner)
      if (!keys) byOwner.set(owner, (keys = new Set()))
      keys.add(key)
      if (owner !== ADMIN_OWNER) shared++
      return evicted
    },
  }
}

export type FairPool<V> = ReturnType<typeof createFairPool<V>>
