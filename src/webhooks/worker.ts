// The delivery worker: sends due deliveries from the persistent queue, records every attempt,
// retries on the scenario's schedule (virtual time, with up to 10% jitter, or what Retry-After
// asks within the schedule's bounds), disables a subscription that answers 410, refuses hosts
// outside WEBHOOK_ALLOWED_HOSTS, and applies each subscription's chaos.
// Scheduling (docs/decisions/2026-11-23-webhook-scheduling.md): a round asks each subscription for its own
// due deliveries, as many as it has free slots (limits.ts); nothing waits for unrelated sends,
// and a finished send starts the next round at once.
import type { Clock, Micros } from '../clock.js'
import { SECOND_US } from '../domain/time.js'
import type { Log } from '../log.js'
import type { AttemptSeen } from '../readiness/recorder.js'
import type { Store } from '../store/index.js'
import type { Delivery, Subscription } from '../store/webhooks.js'
import { isUnwritable } from '../store/write-health.js'
import { hostRefusal } from './allowed-hosts.js'
import { createRoll } from './chaos.js'
import { retryDelay } from './retry.js'
import { send, type SendResult } from './send.js'
import { createSlots } from './slots.js'

export interface WorkerDeps {
  store: Store
  clock: Clock
  log: Log
  seed?: string
  userAgent: string
  fetch?: typeof fetch
  /** WEBHOOK_ALLOWED_HOSTS; undefined allows any host. */
  allowedHosts?: readonly string[]
  /**
   * Told after each attempt is recorded (`disabled`: it disabled the subscription), so the
   * dashboard's live stream shows attempts as they happen; called often, so it must be cheap.
   */
  onRecorded?: (d: Delivery, sub: Subscription, disabled: boolean) => void
  /** Told of each send that reached a receiver (or timed out there): readiness (docs/READINESS.md). */
  observe?: (seen: AttemptSeen) => void
}

const acknowledged = (r: SendResult) =>
  r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300

interface Started {
  done: Promise<void>
  /** Held back on purpose by delay_ms chaos: not worth waiting for. */
  delayed: boolean
}

export function createWebhookWorker(deps: WorkerDeps) {
  const { store, clock, log } = deps
  const roll = createRoll(deps.seed)
  const fetchImpl = deps.fetch ?? fetch
  const inFlight = new Map<string, Promise<void>>()
  const slots = createSlots()
  let kicked = false
  let turn = 0
  let finished = signal()

  /** Records one attempt (and the delivery's new state), then tells `onRecorded`. */
  function record(
    d: Delivery,
    sub: Subscription,
    r: SendResult,
    chaos: string | null,
    next: Parameters<Store['webhooks']['record']>[2],
    disabled = false,
  ): void {
    const entry = {
      at: clock.now(),
      statusCode: r.statusCode,
      latencyMs: Math.round(r.latencyMs * 1000) / 1000,
      error: r.error,
      chaos,
      headers: r.headers,
    }
    if (!store.webhooks.record(d.id, entry, next)) return
    if (disabled) store.webhooks.disable(d.webhookId, entry.at, 'the receiver answered 410 Gone')
    deps.onRecorded?.(d, sub, disabled)
  }

  function conclude(
    d: Delivery,
    sub: Subscription,
    attempt: number,
    r: SendResult,
    chaos: string | null,
    final = false,
  ): void {
    const now = clock.now()
    if (r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300) {
      return record(d, sub, r, chaos, {
        status: 'delivered',
        nextAttemptAt: null,
        deliveredAt: now,
        lastError: null,
        counted: true,
      })
    }
    if (r.statusCode === 410) {
      return record(
        d,
        sub,
        r,
        chaos,
        {
          status: 'failed',
          nextAttemptAt: null,
          deliveredAt: null,
          lastError: r.error,
          counted: true,
        },
        true,
      )
    }
    const schedule = store.setup.settings().webhook_retry_seconds
    const wait = final
      ? null
      : retryDelay(schedule, attempt, r.retryAfter, roll(d.id, attempt, 'jitter'))
    const next: Micros | null = wait === null ? null : now + Math.round(wait * SECOND_US)
    record(d, sub, r, chaos, {
      status: next === null ? 'failed' : 'pending',
      nextAttemptAt: next,
      deliveredAt: null,
      lastError: r.error,
      counted: true,
    })
  }

  async function attempt(d: Delivery, sub: Subscription): Promise<void> {
    const n = d.attempts + 1
    // The list can change between restarts: a refused host fails the delivery at once, as a
    // retry could not succeed before the next restart (a manual retry can send it then).
    const refused = hostRefusal(sub.url, deps.allowedHosts)
    if (refused)
      return conclude(
        d,
        sub,
        n,
        {
          statusCode: null,
          latencyMs: 0,
          stalledMs: 0,
          error: `not sent: ${refused}`,
          retryAfter: null,
          headers: null,
        },
        null,
        true,
      )
    const chaos = sub.chaos ?? {}
    if (chaos.delay_ms) await new Promise((r) => setTimeout(r, chaos.delay_ms))
    if (roll(d.id, n, 'drop') < (chaos.drop ?? 0)) {
      conclude(
        d,
        sub,
        n,
        {
          statusCode: null,
          latencyMs: 0,
          stalledMs: 0,
          error: 'dropped by chaos',
          retryAfter: null,
          headers: null,
        },
        'drop',
      )
      return
    }
    const badSignature = roll(d.id, n, 'bad_signature') < (chaos.bad_signature ?? 0)
    const opts = { badSignature, userAgent: deps.userAgent, fetch: fetchImpl }
    const result = await send(sub, d, opts)
    // Read before this attempt is recorded: whether the receiver had taken this webhook-id already.
    const ackedBefore =
      deps.observe !== undefined &&
      !acknowledged(result) &&
      d.attempts > 0 &&
      store.webhooks
        .attempts(d.id)
        .some((a) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300)
    observe(d, sub, result, {
      badSignature,
      duplicate: false,
      retried: d.lastError !== null,
      acknowledgedBefore: ackedBefore,
    })
    if (roll(d.id, n, 'duplicate') < (chaos.duplicate ?? 0)) {
      const again = await send(sub, d, opts)
      record(d, sub, again, 'duplicate', {
        status: 'pending',
        nextAttemptAt: d.nextAttemptAt,
        deliveredAt: null,
        lastError: null,
        counted: false,
      })
      observe(d, sub, again, {
        badSignature,
        duplicate: true,
        retried: false,
        acknowledgedBefore: ackedBefore || acknowledged(result),
      })
    }
    conclude(d, sub, n, result, badSignature ? 'bad_signature' : null)
  }

  function observe(
    d: Delivery,
    sub: Subscription,
    r: SendResult,
    how: Pick<AttemptSeen, 'badSignature' | 'duplicate' | 'retried' | 'acknowledgedBefore'>,
  ): void {
    if (!deps.observe || (r.statusCode === null && !r.timedOut)) return
    deps.observe({
      companyId: d.companyId,
      subscriptionId: sub.id,
      url: sub.url,
      eventType: d.eventType,
      deliveryId: d.id,
      statusCode: r.statusCode,
      latencyMs: r.latencyMs,
      stalledMs: r.stalledMs,
      timedOut: r.timedOut === true,
      signed: sub.format === 'standard',
      body: d.body,
      ...how,
    })
  }

  /** Runs `list` (one subscription's deliveries) one after another, each holding a slot until the run ends. */
  function run(sub: Subscription, list: Delivery[]): Promise<void> {
    for (const _ of list) slots.take(sub)
    const done = (async () => {
      for (const d of list) await attempt(d, sub)
    })()
      .catch(
        (err) =>
          void (
            isUnwritable(err) ||
            log.error('webhook delivery failed', { webhook: sub.id, error: String(err) })
          ),
      )
      .finally(() => {
        for (const d of list) {
          inFlight.delete(d.id)
          slots.give(sub)
        }
        freed()
      })
    for (const d of list) inFlight.set(d.id, done)
    return done
  }

  /**
   * One round: every subscription with deliveries due starts as many of them as it has free
   * slots. Only those are visited (store/due-webhooks.ts): a round costs what there is to send,
   * not a query per subscription of every company.
   */
  function round(now: Micros = clock.now()): Started[] {
    if (!store.db.open) return []
    const ids = store.webhooks.dueSubscriptions(now)
    const started: Started[] = []
    // A different first subscription each round, so an owner's slots go to each of its subscriptions in turn.
    const first = ids.length ? turn++ % ids.length : 0
    for (let i = 0; i < ids.length; i++) {
      const id = ids[(first + i) % ids.length]!
      const sub = store.webhooks.get(id)
      if (!sub || sub.disabledAt !== null) {
        store.webhooks.settleDue(id)
        continue
      }
      const free = slots.free(sub)
      if (free === 0) continue
      // At most `held` of the rows are its own sends under way: ask for that many more.
      const due = store.webhooks
        .dueFor(sub.id, now, free + slots.held(sub))
        .filter((d) => !inFlight.has(d.id))
        .slice(0, free)
      if (!due.length) {
        if (slots.held(sub) === 0) store.webhooks.settleDue(id)
        continue
      }
      const delayed = Boolean(sub.chaos?.delay_ms)
      if (sub.chaos?.reorder) started.push({ done: run(sub, due.reverse()), delayed })
      else for (const d of due) started.push({ done: run(sub, [d]), delayed })
    }
    return started
  }

  /** After slots were given back: whoever waits for one looks again, and due sends start. */
  function freed(): void {
    finished.fire()
    finished = signal()
    if (store.db.open) kick()
  }

  function kick(): void {
    if (kicked) return
    kicked = true
    setImmediate(() => {
      kicked = false
      round()
    })
  }

  return {
    /**
     * Starts every due send there is room for, and resolves when those sends have concluded
     * (not the ones already under way, nor those held back by delay_ms chaos), or after
     * `maxWaitMs`, whichever comes first; the sends go on either way.
     */
    async deliverDue(opts: { maxWaitMs?: number } = {}): Promise<void> {
      const waited = Promise.all(
        round()
          .filter((s) => !s.delayed)
          .map((s) => s.done),
      ).then(() => undefined)
      if (opts.maxWaitMs === undefined) return waited
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, opts.maxWaitMs)))
      await Promise.race([waited, timeout])
      clearTimeout(timer)
    },
    /**
     * Sends one delivery now, ahead of older ones of its subscription (it must be due), and
     * resolves when that attempt has concluded; if its subscription or company has no free
     * slot, it takes the next one that frees. Resolves at once when the delivery is gone, not
     * pending, not due, or its subscription is disabled.
     */
    async deliver(id: string): Promise<void> {
      for (;;) {
        const mine = inFlight.get(id)
        if (mine) return mine
        const d = store.db.open ? store.webhooks.delivery(id) : undefined
        const sub = d && store.webhooks.get(d.webhookId)
        if (
          !sub ||
          sub.disabledAt !== null ||
          d.status !== 'pending' ||
          d.nextAttemptAt === null ||
          d.nextAttemptAt > clock.now()
        )
          return
        if (slots.free(sub) > 0) {
          const done = run(sub, [d])
          round()
          return done
        }
        // A slot of its subscription or company is taken: waiting ends when one frees.
        await finished.promise
      }
    },
    /**
     * Takes one send slot of this subscription (and of its owner) for a send from outside the
     * queue (the receiver check), waiting for one to free as `deliver` does; answers the
     * function that gives it back. So nothing sends to a subscription's URL beyond its limits.
     */
    async slot(sub: Subscription): Promise<() => void> {
      while (slots.free(sub) === 0) await finished.promise
      slots.take(sub)
      let given = false
      return () => {
        if (given) return
        given = true
        slots.give(sub)
        freed()
      }
    },
    /** Sends what was just queued on the next turn of the event loop, without waiting for the ticker. */
    kick,
    /** Waits for the sends under way (for a clean shutdown). */
    idle: () => Promise.all(inFlight.values()).then(() => undefined),
    retryNow(id: string): void {
      store.webhooks.retry(id, clock.now())
    },
  }
}

function signal() {
  let fire!: () => void
  const promise = new Promise<void>((r) => (fire = r))
  return { promise, fire }
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>
