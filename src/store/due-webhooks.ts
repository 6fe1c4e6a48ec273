// Which subscriptions have deliveries due, and from when: the worker's round visits those only
// (docs/DESIGN.md, "Webhook scheduling"), so its cost follows the work there is, not the number
// of subscriptions every company holds. Per subscription, the earliest `next_attempt_at` of its
// pending deliveries, or earlier: an entry may be early (a rolled-back enqueue, a delivery sent
// since), never late, so a visit that finds nothing due reads the true time again.
import type { Micros } from '../clock.js'
import { keepsCache } from './caches.js'
import type { Db } from './db.js'

export function dueWebhooks(db: Db) {
  const allStmt = db.prepare<[], { webhook_id: string; at: Micros }>(
    "SELECT webhook_id, min(next_attempt_at) AS at FROM deliveries WHERE status = 'pending' AND next_attempt_at IS NOT NULL GROUP BY webhook_id",
  )
  const oneStmt = db
    .prepare(
      "SELECT min(next_attempt_at) FROM deliveries WHERE webhook_id = ? AND status = 'pending'",
    )
    .pluck()
  // Read whole when the store opens, and again only after a whole group of writes was rolled
  // back or a reset: a scan of the pending deliveries, which no call pays.
  const load = () => new Map(allStmt.all().map((r) => [r.webhook_id, r.at]))
  let dueAt = load()
  // Forgotten with the store's other caches: after a rolled-back group, a reset (caches.ts).
  keepsCache(db, () => void (dueAt = load()))
  return {
    /** A delivery of `webhookId` is pending from `at`. */
    note(webhookId: string, at: Micros | null): void {
      if (at === null) return
      const known = dueAt.get(webhookId)
      if (known === undefined || at < known) dueAt.set(webhookId, at)
    },
    /** The subscriptions with something due at `now`, in the order they became known. */
    due(now: Micros): string[] {
      const ids: string[] = []
      for (const [id, at] of dueAt) if (at <= now) ids.push(id)
      return ids
    },
    /** Reads a subscription's earliest pending delivery again (after a visit found nothing to start). */
    settle(webhookId: string): void {
      const at = oneStmt.get(webhookId) as Micros | null
      if (at === null) dueAt.delete(webhookId)
      else dueAt.set(webhookId, at)
    },
    forget(webhookId: string): void {
      dueAt.delete(webhookId)
    },
  }
}
