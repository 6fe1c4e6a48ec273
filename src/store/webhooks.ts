// Webhook subscriptions and their persistent delivery queue. Active subscriptions are cached
// in memory, per company: every event checks its company's, and they change rarely.
import type { Micros } from '../clock.js'
import type { Chaos, WebhookEvent } from '../webhooks/schema.js'
import type { Db } from './db.js'
import { headersText } from './attempt-headers.js'
import { keepsCache } from './caches.js'
import { dueWebhooks } from './due-webhooks.js'
import { decodeCursor, pageOf, type ListFilter, type Page } from './paging.js'
import { insertInto, TABLES, type InsertRow, type RowOf } from './tables.js'

const { webhooks: WEBHOOKS, deliveries: DELIVERIES, delivery_attempts: ATTEMPTS } = TABLES

/** Companies whose subscriptions are remembered at once; beyond it the memory starts over. */
const MAX_COMPANIES_REMEMBERED = 20_000

export type WebhookFormat = 'standard' | 'bcb'

export type { Chaos }

export interface Subscription {
  id: string
  companyId: string | null
  url: string
  events: WebhookEvent[]
  format: WebhookFormat
  secret: string
  chaos: Chaos | null
  disabledAt: Micros | null
  disabledReason: string | null
  createdAt: Micros
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export interface Delivery {
  id: string
  webhookId: string
  eventId: string
  eventType: string
  companyId: string | null
  body: string
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: Micros | null
  createdAt: Micros
  deliveredAt: Micros | null
  lastError: string | null
}

/** What queueing a delivery is told; the rest of its row is a new delivery's (deliveryRow). */
export type NewDelivery = Omit<Delivery, 'status' | 'attempts' | 'deliveredAt' | 'lastError'>

export interface Attempt {
  at: Micros
  statusCode: number | null
  latencyMs: number | null
  error: string | null
  chaos: string | null
  /** The request headers sent, as the worker set them; null when nothing was sent or the attempt predates migration 006. */
  headers: Record<string, string> | null
}

/**
 * Attempts kept per delivery, newest first: more than any schedule makes (at most 20 retries,
 * each maybe duplicated by chaos), so only manual retries, which a client can repeat without
 * end, ever drop one. `attempts` on the delivery still counts them all.
 */
export const MAX_ATTEMPTS_KEPT = 100

const toSub = (r: RowOf<typeof WEBHOOKS>): Subscription => ({
  id: r.id,
  companyId: r.company_id,
  url: r.url,
  events: JSON.parse(r.events),
  format: r.format as WebhookFormat,
  secret: r.secret,
  chaos: r.chaos ? JSON.parse(r.chaos) : null,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  createdAt: r.created_at,
})

const toDelivery = (r: RowOf<typeof DELIVERIES>): Delivery & { seq: number } => ({
  seq: r.seq,
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  companyId: r.company_id,
  body: r.body,
  status: r.status as DeliveryStatus,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
  lastError: r.last_error,
})

const subRow = (s: Subscription): InsertRow<typeof WEBHOOKS> => ({
  id: s.id,
  company_id: s.companyId,
  url: s.url,
  events: JSON.stringify(s.events),
  format: s.format,
  secret: s.secret,
  chaos: s.chaos && JSON.stringify(s.chaos),
  disabled_at: s.disabledAt,
  disabled_reason: s.disabledReason,
  created_at: s.createdAt,
})

/** A delivery as it is queued: pending, never attempted. */
const deliveryRow = (d: NewDelivery): InsertRow<typeof DELIVERIES, 'seq'> => ({
  id: d.id,
  webhook_id: d.webhookId,
  event_id: d.eventId,
  event_type: d.eventType,
  company_id: d.companyId,
  body: d.body,
  status: 'pending',
  attempts: 0,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
  delivered_at: null,
  last_error: null,
})

const attemptRow = (deliveryId: string, a: Attempt): InsertRow<typeof ATTEMPTS, 'seq'> => ({
  delivery_id: deliveryId,
  at: a.at,
  status_code: a.statusCode,
  latency_ms: a.latencyMs,
  error: a.error,
  chaos: a.chaos,
  headers: a.headers && headersText(a.headers),
})

export function webhookStore(db: Db) {
  const insertSub = insertInto(db, WEBHOOKS)
  const subStmt = db.prepare<[string], RowOf<typeof WEBHOOKS>>(
    `SELECT ${WEBHOOKS.select()} FROM webhooks WHERE id = ?`,
  )
  const insertDelivery = insertInto(db, DELIVERIES, { defaults: ['seq'] })
  const dueStmt = db.prepare<[string, Micros, number], RowOf<typeof DELIVERIES>>(
    `SELECT ${DELIVERIES.select()} FROM deliveries WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?`,
  )
  const countOwn = db.prepare('SELECT count(*) FROM webhooks WHERE company_id = ?').pluck()
  const countGlobal = db.prepare('SELECT count(*) FROM webhooks WHERE company_id IS NULL').pluck()
  const deliveryStmt = db.prepare<[string], RowOf<typeof DELIVERIES>>(
    `SELECT ${DELIVERIES.select()} FROM deliveries WHERE id = ?`,
  )
  const attemptStmt = insertInto(db, ATTEMPTS, { defaults: ['seq'] })
  const updateDelivery =
    db.prepare(`UPDATE deliveries SET status = @status, attempts = attempts + @counted,
    next_attempt_at = @nextAttemptAt, delivered_at = @deliveredAt, last_error = @lastError WHERE id = @id`)
  const attemptsStmt = db.prepare<[string], RowOf<typeof ATTEMPTS>>(
    `SELECT ${ATTEMPTS.select()} FROM delivery_attempts WHERE delivery_id = ? ORDER BY seq`,
  )
  const pruneAttempts = db.prepare(`DELETE FROM delivery_attempts WHERE delivery_id = @id AND seq <=
    (SELECT seq FROM delivery_attempts WHERE delivery_id = @id ORDER BY seq DESC LIMIT 1 OFFSET ${MAX_ATTEMPTS_KEPT})`)
  const activeForStmt = db.prepare<[string | null], RowOf<typeof WEBHOOKS>>(
    `SELECT ${WEBHOOKS.select()} FROM webhooks WHERE (company_id = ? OR company_id IS NULL) AND disabled_at IS NULL ORDER BY rowid`,
  )
  const ownerStmt = db.prepare('SELECT company_id FROM webhooks WHERE id = ?').pluck()
  let active: Subscription[] | undefined
  // Per company (null: events of no company), the active subscriptions its events go to, read
  // through webhooks_company when first asked: an event never looks at other companies' ones.
  const activeFor = new Map<string | null, Subscription[]>()
  const refresh = () => {
    active = undefined
    activeFor.clear()
  }
  keepsCache(db, refresh)
  /** After a change to one subscription: forgets what it may be part of. */
  const changed = (owner: string | null | undefined) => {
    active = undefined
    if (owner === null || owner === undefined) activeFor.clear()
    else activeFor.delete(owner)
  }
  const ownerOf = (id: string) => ownerStmt.get(id) as string | null | undefined
  const due = dueWebhooks(db)
  const retryStmt = db
    .prepare(
      "UPDATE deliveries SET status = 'pending', next_attempt_at = ?, delivered_at = NULL WHERE id = ? RETURNING webhook_id",
    )
    .pluck()

  return {
    add(s: Subscription): void {
      insertSub.run(subRow(s))
      changed(s.companyId)
    },
    get(id: string): Subscription | undefined {
      const r = subStmt.get(id)
      return r ? toSub(r) : undefined
    },
    /** A page of subscriptions, oldest first (by insertion); `status` tells active from disabled. */
    list(f: ListFilter<'active' | 'disabled'>): Page<Subscription> {
      const where: string[] = []
      const args: unknown[] = []
      if (f.companyId !== undefined) where.push('company_id = ?'), args.push(f.companyId)
      if (f.status !== undefined)
        where.push(f.status === 'active' ? 'disabled_at IS NULL' : 'disabled_at IS NOT NULL')
      if (f.cursor !== undefined) where.push('rowid > ?'), args.push(decodeCursor(f.cursor) ?? 0)
      const sql = `SELECT rowid AS seq, ${WEBHOOKS.select()} FROM webhooks ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY rowid LIMIT ?`
      return pageOf(
        db.prepare(sql).all(...args, f.limit + 1) as (RowOf<typeof WEBHOOKS> & { seq: number })[],
        f.limit,
        (r) => r.seq,
        toSub,
      )
    },
    /** Subscriptions a company holds (disabled ones included); null counts the admin's global ones. */
    count(companyId: string | null): number {
      return (companyId === null ? countGlobal.get() : countOwn.get(companyId)) as number
    },
    remove(id: string): boolean {
      const owner = ownerOf(id)
      const n = db.prepare('DELETE FROM webhooks WHERE id = ?').run(id).changes
      changed(owner)
      due.forget(id)
      return n > 0
    },
    setChaos(id: string, chaos: Chaos | null): void {
      db.prepare('UPDATE webhooks SET chaos = ? WHERE id = ?').run(
        chaos && JSON.stringify(chaos),
        id,
      )
      changed(ownerOf(id))
    },
    disable(id: string, at: Micros, reason: string): void {
      db.prepare('UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ?').run(
        at,
        reason,
        id,
      )
      db.prepare(
        "UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ? WHERE webhook_id = ? AND status = 'pending'",
      ).run(reason, id)
      changed(ownerOf(id))
      due.forget(id)
    },
    /** Subscriptions that receive events: not disabled. */
    active(): Subscription[] {
      active ??= db
        .prepare<[], RowOf<typeof WEBHOOKS>>(
          `SELECT ${WEBHOOKS.select()} FROM webhooks WHERE disabled_at IS NULL`,
        )
        .all()
        .map(toSub)
      return active
    },
    /** The active subscriptions a company's events may go to (its own and the admin's global ones), oldest first; null: the global ones. */
    activeFor(companyId: string | null): Subscription[] {
      let subs = activeFor.get(companyId)
      if (!subs) {
        if (activeFor.size >= MAX_COMPANIES_REMEMBERED) activeFor.clear()
        activeFor.set(companyId, (subs = activeForStmt.all(companyId).map(toSub)))
      }
      return subs
    },
    enqueue(d: NewDelivery): void {
      insertDelivery.run(deliveryRow(d))
      due.note(d.webhookId, d.nextAttemptAt)
    },
    /** Subscriptions with deliveries due at `now` (due-webhooks.ts): what a round visits. */
    dueSubscriptions: due.due,
    /** After a visit started nothing: when the subscription has something due next, read again. */
    settleDue: due.settle,
    /** One subscription's deliveries due at `now`, oldest due first. */
    dueFor(webhookId: string, now: Micros, limit: number) {
      return dueStmt.all(webhookId, now, limit).map(toDelivery)
    },
    delivery(id: string) {
      const r = deliveryStmt.get(id)
      return r ? toDelivery(r) : undefined
    },
    /** Records an attempt and the delivery's new state; false if the delivery is gone (a reset). */
    record(
      id: string,
      attempt: Attempt,
      next: {
        status: DeliveryStatus
        nextAttemptAt: Micros | null
        deliveredAt: Micros | null
        lastError: string | null
        counted: boolean
      },
    ): boolean {
      return db.transaction(() => {
        const delivery = deliveryStmt.get(id)
        if (!delivery) return false
        attemptStmt.run(attemptRow(id, attempt))
        pruneAttempts.run({ id })
        updateDelivery.run({ id, ...next, counted: next.counted ? 1 : 0 })
        if (next.status === 'pending') due.note(delivery.webhook_id, next.nextAttemptAt)
        return true
      })()
    },
    attempts(id: string): Attempt[] {
      return attemptsStmt.all(id).map((r) => ({
        at: r.at,
        statusCode: r.status_code,
        latencyMs: r.latency_ms,
        error: r.error,
        chaos: r.chaos,
        headers: r.headers === null ? null : JSON.parse(r.headers),
      }))
    },
    deliveries(f: {
      companyId?: string
      webhookId?: string
      status?: DeliveryStatus
      limit: number
      before?: number
    }) {
      const where: string[] = []
      const args: unknown[] = []
      if (f.companyId !== undefined) where.push('company_id = ?'), args.push(f.companyId)
      if (f.webhookId !== undefined) where.push('webhook_id = ?'), args.push(f.webhookId)
      if (f.status !== undefined) where.push('status = ?'), args.push(f.status)
      if (f.before !== undefined) where.push('seq < ?'), args.push(f.before)
      const sql = `SELECT ${DELIVERIES.select()} FROM deliveries ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq DESC LIMIT ?`
      return (db.prepare(sql).all(...args, f.limit) as RowOf<typeof DELIVERIES>[]).map(toDelivery)
    },
    retry(id: string, at: Micros): void {
      const webhookId = retryStmt.get(at, id) as string | undefined
      if (webhookId !== undefined) due.note(webhookId, at)
    },
  }
}

export type WebhookStore = ReturnType<typeof webhookStore>
