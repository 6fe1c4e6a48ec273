// The delivery worker: sends due deliveries from the persistent queue, records every attempt,
// retries on the scenario's schedule (virtual time, with up to 10% jitter, or what Retry-After
// asks), disables a subscription that answers 410, and applies each subscription's chaos.
import type { Clock, Micros } from '../clock.js'
import { SECOND_US } from '../domain/time.js'
import type { Log } from '../log.js'
import type { Store } from '../store/index.js'
import type { Delivery, Subscription } from '../store/webhooks.js'
import { createRoll } from './chaos.js'
import { send, type SendResult } from './send.js'

export interface WorkerDeps {
  store: Store
  clock: Clock
  log: Log
  seed?: string
  userAgent: string
  fetch?: typeof fetch
}

const BATCH = 200

export function createWebhookWorker(deps: WorkerDeps) {
  const { store, clock, log } = deps
  const roll = createRoll(deps.seed)
  const fetchImpl = deps.fetch ?? fetch
  const inFlight = new Map<string, Promise<void>>()
  let kicked = false

  function conclude(d: Delivery, attempt: number, r: SendResult, chaos: string | null): void {
    const now = clock.now()
    const entry = { at: now, statusCode: r.statusCode, latencyMs: Math.round(r.latencyMs * 1000) / 1000, error: r.error, chaos }
    if (r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300) {
      store.webhooks.record(d.id, entry, { status: 'delivered', nextAttemptAt: null, deliveredAt: now, lastError: null, counted: true })
      return
    }
    if (r.statusCode === 410) {
      store.webhooks.record(d.id, entry, { status: 'failed', nextAttemptAt: null, deliveredAt: null, lastError: r.error, counted: true })
      store.webhooks.disable(d.webhookId, now, 'the receiver answered 410 Gone')
      return
    }
    const schedule = store.setup.settings().webhook_retry_seconds
    const wait = r.retryAfter ?? (schedule[attempt - 1] === undefined ? null : schedule[attempt - 1]! * (1 + 0.1 * roll(d.id, attempt, 'jitter')))
    const next: Micros | null = wait === null ? null : now + Math.round(wait * SECOND_US)
    store.webhooks.record(d.id, entry, {
      status: next === null ? 'failed' : 'pending',
      nextAttemptAt: next,
      deliveredAt: null,
      lastError: r.error,
      counted: true,
    })
  }

  async function attempt(d: Delivery, sub: Subscription): Promise<void> {
    const n = d.attempts + 1
    const chaos = sub.chaos ?? {}
    if (chaos.delay_ms) await new Promise((r) => setTimeout(r, chaos.delay_ms))
    if (roll(d.id, n, 'drop') < (chaos.drop ?? 0)) {
      conclude(d, n, { statusCode: null, latencyMs: 0, error: 'dropped by chaos', retryAfter: null }, 'drop')
      return
    }
    const badSignature = roll(d.id, n, 'bad_signature') < (chaos.bad_signature ?? 0)
    const opts = { badSignature, userAgent: deps.userAgent, fetch: fetchImpl }
    const result = await send(sub, d, opts)
    if (roll(d.id, n, 'duplicate') < (chaos.duplicate ?? 0)) {
      const again = await send(sub, d, opts)
      store.webhooks.record(d.id, { at: clock.now(), statusCode: again.statusCode, latencyMs: again.latencyMs, error: again.error, chaos: 'duplicate' }, {
        status: 'pending', nextAttemptAt: d.nextAttemptAt, deliveredAt: null, lastError: null, counted: false,
      })
    }
    conclude(d, n, result, badSignature ? 'bad_signature' : null)
  }

  function track(d: Delivery, run: () => Promise<void>): Promise<void> {
    const p = run()
      .catch((err) => log.error('webhook delivery failed', { delivery: d.id, error: String(err) }))
      .finally(() => inFlight.delete(d.id))
    inFlight.set(d.id, p)
    return p
  }

  /** Sends everything due at `now` and waits for those sends (and any already under way). */
  async function deliverDue(now: Micros = clock.now()): Promise<void> {
    if (!store.db.open) return
    const due = store.webhooks.due(now, BATCH).filter((d) => !inFlight.has(d.id))
    const bySub = new Map<string, Delivery[]>()
    for (const d of due) bySub.set(d.webhookId, [...(bySub.get(d.webhookId) ?? []), d])
    const started: Promise<void>[] = []
    for (const [id, list] of bySub) {
      const sub = store.webhooks.get(id)
      if (!sub || sub.disabledAt !== null) continue
      if (sub.chaos?.reorder) {
        // Held back together, sent newest first, one after another.
        const newestFirst = [...list].reverse()
        const chain = (async () => {
          for (const d of newestFirst) await track(d, () => attempt(d, sub))
        })()
        newestFirst.forEach((d) => inFlight.set(d.id, chain))
        started.push(chain)
      } else {
        for (const d of list) started.push(track(d, () => attempt(d, sub)))
      }
    }
    await Promise.all([...started, ...inFlight.values()])
  }

  return {
    deliverDue,
    /** Sends what was just queued on the next turn of the event loop, without waiting for the ticker. */
    kick(): void {
      if (kicked) return
      kicked = true
      setImmediate(() => {
        kicked = false
        void deliverDue()
      })
    },
    /** Waits for the sends under way (for a clean shutdown). */
    idle: () => Promise.all(inFlight.values()).then(() => undefined),
    retryNow(id: string): void {
      store.webhooks.retry(id, clock.now())
    },
  }
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>
