// The typed control client: openapi-fetch over the generated types of /_sandbox/openapi.json,
// plus thin helpers for what test suites do most. Works against any sandbox, local or remote.
import createClient, { type Client } from 'openapi-fetch'
import type { components, paths } from './openapi.js'

export type ControlPaths = paths
export type Schemas = components['schemas']
type Body<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } }
}
  ? B
  : never
type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never
type Settle = Body<'/transfers/{transaction_id}/settle'>

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

export interface DeliveryMatch {
  /** Event type, e.g. `charge.paid`. */
  event: string
  /** The charge's or transfer's `transaction_id`. */
  transaction_id?: string
  /** Delivery status to wait for (default `delivered`). */
  status?: NonNullable<Query<'/webhooks/deliveries'>['status']>
  timeoutMs?: number
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

export interface Control {
  /** The raw openapi-fetch client: every control endpoint, typed. */
  api: Client<paths>
  health(): Promise<Schemas['Health']>
  /** Admin token only (a company's credentials answer 403): everything back to a fresh start. */
  reset(scenario?: string): Promise<void>
  /**
   * A user's balance in cents. Company credentials (a tenant's `control`) read their own user's
   * by default; the admin token names the user, e.g. `balance('loja-exemplo-user')`.
   */
  balance(userId?: string): Promise<number>
  charges: {
    get(id: string): Promise<Schemas['ChargeRecord']>
    pay(id: string, payer?: Schemas['Payer']): Promise<Schemas['ChargeRecord']>
    expire(id: string): Promise<Schemas['ChargeRecord']>
    cancel(id: string): Promise<Schemas['ChargeRecord']>
  }
  transfers: {
    get(id: string): Promise<Schemas['TransferRecord']>
    settle(
      id: string,
      outcome: Settle['status'],
      message?: Settle['message'],
    ): Promise<Schemas['TransferRecord']>
  }
  /** Admin token only (a company's credentials answer 403): the clock is every company's. */
  clock: {
    /** Moves virtual time on, running what became due (expiries, payments, settlements, webhook retries). */
    advance(seconds: number): Promise<Schemas['ClockAdvanced']>
  }
  outcomes: {
    next(outcome: Body<'/outcomes'>): Promise<Schemas['Queued']>
    clear(): Promise<void>
  }
  faults: {
    /** `{ operation: 'transfer', status: 500, when: 'after' }` loses the answer after the write; `drop: true` closes the connection instead. */
    add(fault: Body<'/faults'>): Promise<Schemas['Queued']>
    clear(): Promise<void>
  }
  requests: {
    count(filter?: Omit<Query<'/requests/count'>, 'limit' | 'cursor'>): Promise<number>
  }
  /**
   * The readiness report (docs/READINESS.md). A company's credentials (a tenant's `control`) read
   * their own; the admin token reads every company's together, or `companyId`'s.
   */
  readiness(companyId?: string): Promise<Readiness>
  webhooks: {
    /**
     * Subscribes `url` to `events` (default: every event) and answers the subscription with its
     * `secret`. A company's subscription gets its own events; the admin's, every company's
     * unless `options.company_id` names one.
     */
    subscribe(url: string, events?: WebhookEvent[], options?: SubscribeOptions): Promise<Webhook>
    /** Resolves with the first delivery that matches, polling until `timeoutMs` (10 s). */
    waitForDelivery(match: DeliveryMatch): Promise<Delivery>
    /**
     * The receiver check (docs/READINESS.md#the-receiver-check) of a standard-format
     * subscription's receiver: valid, duplicate, bad signature, stale timestamp, unknown type.
     */
    check(webhookId: string): Promise<Schemas['ReceiverCheck']>
  }
}

/** The helpers that need the admin token: with a company's credentials they answer 403. */
export type AdminOnly = 'reset' | 'clock'
/**
 * A control client with a company's credentials (a tenant's `control`): that company's charges,
 * transfers, balance, outcomes, faults, webhooks and readiness. The helpers that need the admin
 * token are not on it; they are on the sandbox's `control`.
 */
export type CompanyControl = Omit<Control, AdminOnly>

type Result<T> = { data?: T; error?: unknown; response: Response }

async function ok<T>(what: string, call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call
  if (response.ok) return data as T
  const detail = (error as { detail?: unknown } | undefined)?.detail
  throw new SandboxRequestError(
    response.status,
    typeof detail === 'string' ? detail : JSON.stringify(error ?? null),
    what,
  )
}

const transactionOf = (d: Delivery): unknown => {
  const body = d.body as
    | { data?: { transaction_id?: unknown }; pix?: { txid?: unknown }[] }
    | undefined
  return body?.data?.transaction_id ?? body?.pix?.[0]?.txid
}

/**
 * A control client for the sandbox at `url`, authorized by `authorization` (`Bearer …` or
 * `Basic …`); `userId`, when the caller knows whose credentials these are, spares `balance()`
 * asking `/whoami`.
 */
export function createControl(url: string, authorization: string, userId?: string): Control {
  const api = createClient<paths>({
    baseUrl: `${url.replace(/\/+$/, '')}/_sandbox`,
    headers: { authorization },
  })
  const id = (transaction_id: string) => ({ params: { path: { transaction_id } } })
  // Whose balance `balance()` reads without a user id: asked once, the credentials never change.
  let ownUser: Promise<string | null> | undefined =
    userId === undefined ? undefined : Promise.resolve(userId)
  const userOf = async (asked: string | undefined): Promise<string> => {
    if (asked !== undefined) return asked
    const own = await (ownUser ??= ok('whoami', api.GET('/whoami')).then(
      (w) => w.user_id,
      (err) => ((ownUser = undefined), Promise.reject(err)),
    ))
    if (own === null)
      throw new TypeError(
        "balance(): the admin token is no user's; name one, e.g. balance('loja-exemplo-user')",
      )
    return own
  }
  return {
    api,
    health: () => ok('health', api.GET('/health')),
    reset: async (scenario) =>
      void (await ok(
        'reset',
        api.POST('/reset', { body: scenario === undefined ? {} : { scenario } }),
      )),
    balance: async (userId) => {
      const user = await userOf(userId)
      return (
        await ok(
          `balance of ${user}`,
          api.GET('/users/{user_id}/balance', { params: { path: { user_id: user } } }),
        )
      ).balance
    },
    charges: {
      get: (tx) => ok(`charge ${tx}`, api.GET('/charges/{transaction_id}', id(tx))),
      pay: (tx, payer) =>
        ok(
          `pay ${tx}`,
          api.POST('/charges/{transaction_id}/pay', { ...id(tx), body: payer ? { payer } : {} }),
        ),
      expire: (tx) => ok(`expire ${tx}`, api.POST('/charges/{transaction_id}/expire', id(tx))),
      cancel: (tx) => ok(`cancel ${tx}`, api.POST('/charges/{transaction_id}/cancel', id(tx))),
    },
    transfers: {
      get: (tx) => ok(`transfer ${tx}`, api.GET('/transfers/{transaction_id}', id(tx))),
      settle: (tx, status, message) =>
        ok(
          `settle ${tx}`,
          api.POST('/transfers/{transaction_id}/settle', {
            ...id(tx),
            body: message === undefined ? { status } : { status, message },
          }),
        ),
    },
    clock: {
      advance: (seconds) => ok('clock advance', api.POST('/clock/advance', { body: { seconds } })),
    },
    outcomes: {
      next: (outcome) => ok('outcome', api.POST('/outcomes', { body: outcome })),
      clear: async () => void (await ok('clear outcomes', api.DELETE('/outcomes'))),
    },
    faults: {
      add: (fault) => ok('fault', api.POST('/faults', { body: fault })),
      clear: async () => void (await ok('clear faults', api.DELETE('/faults'))),
    },
    requests: {
      count: async (filter = {}) =>
        (await ok('count requests', api.GET('/requests/count', { params: { query: filter } })))
          .count,
    },
    readiness: (companyId) =>
      ok(
        'readiness',
        api.GET('/readiness', {
          params: { query: companyId === undefined ? {} : { company_id: companyId } },
        }),
      ),
    webhooks: {
      subscribe: (url, events, options) =>
        ok(
          `subscribe ${url}`,
          api.POST('/webhooks', { body: { ...options, url, ...(events && { events }) } }),
        ),
      waitForDelivery: async ({
        event,
        transaction_id,
        status = 'delivered',
        timeoutMs = 10_000,
      }) => {
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
      },
      check: (webhookId) =>
        ok(
          `check ${webhookId}`,
          api.POST('/webhooks/{webhook_id}/check', { params: { path: { webhook_id: webhookId } } }),
        ),
    },
  }
}
