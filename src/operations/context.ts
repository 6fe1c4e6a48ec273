// What every use case receives: the store, the virtual clock, the id generator and the public
// location base. Injected, never imported as singletons, so tests build their own.
import type { Clock, Micros } from '../clock.js'
import type { SandboxEvent } from '../domain/types.js'
import type { Fakes } from '../fakes.js'
import type { Ids } from '../ids.js'
import type { Readiness } from '../readiness/recorder.js'
import { DEFAULT_MAX_COMPANIES } from '../config.js'
import { AppError } from '../domain/errors.js'
import type { Store } from '../store/index.js'
import { enqueueEvent } from '../webhooks/outbox.js'

export interface Context {
  store: Store
  clock: Clock
  ids: Ids
  /** The host (and path) of charge locations, without scheme: `localhost:8080`. */
  locationBase: string
  /** Fake payers and company names; await `fakes.ready()` before a use case that needs them. */
  fakes: Fakes
  /** MAX_COMPANIES: how many companies the sandbox holds at most (DEFAULT_MAX_COMPANIES when unset). */
  maxCompanies?: number
  /** Told when an event queued a webhook delivery, so the worker can send it without waiting. */
  onWebhookQueued?: () => void
  /** Told of every change a live view may show (the dashboard's stream); runs inside use cases, so it must be cheap. */
  onChange?: (change: Change) => void
  /** What the sandbox saw of each company's integration (docs/READINESS.md); reset and company deletion clear it. */
  readiness?: Readiness
}

/**
 * What changed: an event (written in the caller's transaction), a clock move, a journaled
 * request, or a webhook attempt the worker recorded (`webhook`: the subscription it disabled).
 */
export type Change =
  | { kind: 'event'; event: SandboxEvent }
  | { kind: 'clock' }
  | { kind: 'request'; companyId: string | null }
  | {
      kind: 'delivery'
      id: string
      companyId: string | null
      webhook: { id: string; companyId: string | null } | null
    }

/** Refuses (422, naming the limit) when the store holds more companies than the sandbox allows; inside the caller's transaction. */
export function assertCompaniesWithinLimit(ctx: Context, adding = 0): void {
  const max = ctx.maxCompanies ?? DEFAULT_MAX_COMPANIES
  if (ctx.store.identity.companyCount() + adding > max) {
    throw new AppError(
      'invalid_input',
      `this sandbox holds at most ${max} ${max === 1 ? 'company' : 'companies'} (MAX_COMPANIES): delete some, or reset`,
    )
  }
}

/** The ISPB written into end-to-end ids: a placeholder, as the sandbox is no real institution. */
export const SANDBOX_ISPB = '00000000'

/** An event a use case emits: its type, when, whose, and what it carries. */
export interface NewEvent {
  type: string
  at: Micros
  companyId: string | null
  data: Record<string, unknown>
}

/**
 * Appends events to the log, in order and in one statement (inside the caller's transaction),
 * queues the webhooks they go to and tells the live views.
 */
export function emitAll(ctx: Context, events: readonly NewEvent[]): SandboxEvent[] {
  const emitted = events.map(
    (e): SandboxEvent => ({
      id: ctx.ids.prefixed('evt'),
      type: e.type,
      at: e.at,
      companyId: e.companyId,
      data: e.data,
    }),
  )
  ctx.store.events.appendAll(emitted)
  let queued = 0
  for (const event of emitted)
    queued += enqueueEvent(ctx.store, () => ctx.ids.prefixed('msg'), event)
  if (queued > 0) ctx.onWebhookQueued?.()
  for (const event of emitted) ctx.onChange?.({ kind: 'event', event })
  return emitted
}

/** Appends an event to the log (inside the caller's transaction). */
export const emit = (
  ctx: Context,
  type: string,
  at: Micros,
  companyId: string | null,
  data: Record<string, unknown>,
): SandboxEvent => emitAll(ctx, [{ type, at, companyId, data }])[0]!

/**
 * Moves money and records both the ledger entry and a `balance.changed` event; `then`: the use
 * case's events that follow the change, written with it in one statement.
 */
export function moveMoney(
  ctx: Context,
  companyId: string,
  userId: string,
  amount: number,
  kind: Parameters<Store['ledger']['apply']>[2],
  reference: string | null,
  at: Micros,
  then: readonly NewEvent[] = [],
): number | null {
  const balance = ctx.store.ledger.apply(userId, amount, kind, reference, at)
  if (balance !== null) {
    const changed: NewEvent = {
      type: 'balance.changed',
      at,
      companyId,
      data: { user_id: userId, amount, kind, reference, balance },
    }
    emitAll(ctx, [changed, ...then])
  }
  return balance
}
