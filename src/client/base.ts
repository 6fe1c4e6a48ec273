// What the generated control client (control.ts, from the table in helpers.ts) calls: the error a
// refusal throws, `ok()`, the types it spells its arguments with, and the two pieces of the helpers
// that are more than one call: a balance's own user, and waiting for a delivery.
import type { Client } from 'openapi-fetch'
import type { components, paths } from './openapi.js'

export type ControlPaths = paths
export type Schemas = components['schemas']
type Operation<P extends keyof paths, M extends string> = M extends keyof paths[P]
  ? paths[P][M]
  : never
/** An operation's JSON body. */
export type Body<P extends keyof paths, M extends string = 'post'> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never
/** An operation's query parameters. */
export type Query<P extends keyof paths, M extends string = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never
/** A helper written here, as the control offers it: without the client it is handed. */
export type Helper<F> = F extends (api: Api, ...args: infer A) => infer R
  ? (...args: A) => R
  : never
type Api = Client<paths>

/** A control call the sandbox refused: `status` and the `{detail}` it answered. */
export class SandboxRequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    what: string,
  ) {
    super(`${what}: ${status} ${detail}`)
    this.name = 'SandboxRequestError'
  }
}

type Result<T> = { data?: T; error?: unknown; response: Response }

/** The answer of a 2xx; a `SandboxRequestError` naming the call (`what`) otherwise. */
export async function ok<T>(what: string, call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call
  if (response.ok) return data as T
  const detail = (error as { detail?: unknown } | undefined)?.detail
  throw new SandboxRequestError(
    response.status,
    typeof detail === 'string' ? detail : JSON.stringify(error ?? null),
    what,
  )
}

/**
 * The user a helper with an optional `user_id` reads when none is named: the credentials' own,
 * asked of /whoami once (they never change), or `userId` when the caller knew it.
 */
export function ownUser(api: Api, userId?: string): (asked: string | undefined) => Promise<string> {
  let own: Promise<string | null> | undefined =
    userId === undefined ? undefined : Promise.resolve(userId)
  return async (asked) => {
    if (asked !== undefined) return asked
    const user = await (own ??= ok('whoami', api.GET('/whoami')).then(
      (w) => w.user_id,
      (err) => ((own = undefined), Promise.reject(err)),
    ))
    if (user === null)
      throw new TypeError(
        "balance(): the admin token is no user's; name one, e.g. balance('loja-exemplo-user')",
      )
    return user
  }
}

export type Delivery = Schemas['WebhookDelivery']
/** A webhook subscription, with the `secret` its deliveries are signed with. */
export type Webhook = Schemas['Webhook']
/** An event a subscription can name (`charge.paid`, `transfer.failed`, ...). */
export type WebhookEvent = NonNullable<Body<'/webhooks'>['events']>[number]
/** The other fields of `POST /_sandbox/webhooks`: `format`, `secret`, and for the admin `company_id`. */
export type SubscribeOptions = Omit<Body<'/webhooks'>, 'url' | 'events'>
/** The readiness report (docs/READINESS.md): behaviours met, coverage and findings. */
export type Readiness = Schemas['Readiness']

export interface DeliveryMatch {
  /** Event type, e.g. `charge.paid`. */
  event: string
  /** The charge's or transfer's `transaction_id`. */
  transaction_id?: string
  /** Delivery status to wait for (default `delivered`). */
  status?: NonNullable<Query<'/webhooks/deliveries'>['status']>
  timeoutMs?: number
}

/** The charge or transfer a delivery tells of: a standard body's `data.transaction_id`, a bcb body's first `pix[].txid`. */
const transactionOf = (d: Delivery): unknown => {
  const body = d.body as
    | { data?: { transaction_id?: unknown }; pix?: { txid?: unknown }[] }
    | undefined
  return body?.data?.transaction_id ?? body?.pix?.[0]?.txid
}

/** The first delivery that matches, polling until `timeoutMs` (10 s). */
export async function waitForDelivery(
  api: Api,
  { event, transaction_id, status = 'delivered', timeoutMs = 10_000 }: DeliveryMatch,
): Promise<Delivery> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const page = await ok(
      'deliveries',
      api.GET('/webhooks/deliveries', { params: { query: { status, limit: 500 } } }),
    )
    const found = page.data.find(
      (d) =>
        d.event_type === event &&
        (transaction_id === undefined || transactionOf(d) === transaction_id),
    )
    if (found) return found
    if (Date.now() > deadline) {
      throw new Error(
        `no ${status} delivery of ${event}${transaction_id ? ` for ${transaction_id}` : ''} within ${timeoutMs} ms`,
      )
    }
    await new Promise((r) => setTimeout(r, 20))
  }
}
