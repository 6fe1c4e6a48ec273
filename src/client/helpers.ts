// The control helpers of both packages, declared once. From this table `npm run generate`
// (scripts/helpers/) writes the Node client (src/client/control.ts), the Python package's
// (clients/python/src/pix_sandbox/control.py) and docs/PYTHON.md's table of helpers; each
// argument's and answer's type is read from the control plane's document. Why a table and not
// two clients by hand: docs/DESIGN.md, "The control helpers".
import type { paths } from './openapi.js'

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
/** An operation the control plane declares, as `POST /charges/{transaction_id}/pay`. */
export type Operation = {
  [P in keyof paths]: {
    [M in keyof paths[P] & Method]: `${Uppercase<M>} ${P}`
  }[keyof paths[P] & Method]
}[keyof paths]

/**
 * A helper's argument, in order. Names are the document's (snake_case), which Python keeps and
 * Node writes in camelCase.
 */
export type Arg =
  /** A path parameter, positional. `'own user'`: it may be left out, for the caller's own user. */
  | { in: 'path'; name: string; optional?: 'own user' }
  /** One field of the body, or one query parameter, positional. */
  | { in: 'body' | 'query'; name: string; optional?: true }
  /** The whole body: in Node one object named `all`, in Python keyword arguments. */
  | { in: 'body'; all: string }
  /**
   * The body's or the query's fields that no argument before it takes, but `omit`: in Node an
   * optional object named `rest`, in Python keyword-only arguments.
   */
  | { in: 'body' | 'query'; rest: string; omit?: string[] }

interface Common {
  /** camelCase (Python: snake_case). */
  name: string
  /** The group it is in (`charges`), or none: a helper of the control itself. */
  group?: string
  /** What it does: the JSDoc, the docstring and the docs' row. */
  doc: string
}

/** A helper that is one call of the control plane. */
export interface Call extends Common {
  operation: Operation
  args?: Arg[]
  /** What it answers: the operation's JSON (by default), nothing, or one field of it. */
  answer?: 'nothing' | { field: string }
  /** How a refusal names the call (`SandboxRequestError`'s message): `pay {transaction_id}`. */
  what: string
  /** Only the admin token may call it: not on a company's control (Node's `CompanyControl`). */
  admin?: true
}

/**
 * A helper that is more than one call, written in each language: Node's function of that name
 * in src/client/base.ts, Python's method of `<Group>ByHand` (clients/python/src/pix_sandbox/).
 */
export interface ByHand extends Common {
  byHand: {
    /** Its module in the Python package. */
    module: string
    /** Its Python signature and answer, as docs/PYTHON.md shows them. */
    python: string
    answers: string
  }
}

export type Helper = Call | ByHand

const tx = { in: 'path', name: 'transaction_id' } as const

export const HELPERS: Helper[] = [
  {
    name: 'health',
    operation: 'GET /health',
    what: 'health',
    doc: 'Status, version, scenario and virtual `now`.',
  },
  {
    name: 'reset',
    operation: 'POST /reset',
    args: [{ in: 'body', name: 'scenario', optional: true }],
    answer: 'nothing',
    what: 'reset',
    admin: true,
    doc: "Everything back to a fresh start: state, clock, journal, outcomes, faults, webhooks and readiness; `scenario` loads another than the one the sandbox started with. Admin token only. The sandbox's own `reset()` also applies again the settings it was started with.",
  },
  {
    name: 'balance',
    operation: 'GET /users/{user_id}/balance',
    args: [{ in: 'path', name: 'user_id', optional: 'own user' }],
    answer: { field: 'balance' },
    what: 'balance of {user_id}',
    doc: "A user's balance in cents: company credentials (a tenant's control) read their own user's by default; the admin token names the user (`loja-exemplo-user`).",
  },
  {
    group: 'charges',
    name: 'get',
    operation: 'GET /charges/{transaction_id}',
    args: [tx],
    what: 'charge {transaction_id}',
    doc: 'A charge, with everything the sandbox knows of it.',
  },
  {
    group: 'charges',
    name: 'pay',
    operation: 'POST /charges/{transaction_id}/pay',
    args: [tx, { in: 'body', name: 'payer', optional: true }],
    what: 'pay {transaction_id}',
    doc: "Pays a pending charge as the payer's bank would (`payer`: a `name` and a `document`, else a generated one): `paid`, the balance credited.",
  },
  {
    group: 'charges',
    name: 'expire',
    operation: 'POST /charges/{transaction_id}/expire',
    args: [tx],
    what: 'expire {transaction_id}',
    doc: 'Expires a pending charge now: `cancelled`, reason `expired`.',
  },
  {
    group: 'charges',
    name: 'cancel',
    operation: 'POST /charges/{transaction_id}/cancel',
    args: [tx],
    what: 'cancel {transaction_id}',
    doc: 'Cancels a pending charge: `cancelled`, reason `cancelled`.',
  },
  {
    group: 'transfers',
    name: 'get',
    operation: 'GET /transfers/{transaction_id}',
    args: [tx],
    what: 'transfer {transaction_id}',
    doc: 'A transfer, with everything the sandbox knows of it.',
  },
  {
    group: 'transfers',
    name: 'settle',
    operation: 'POST /transfers/{transaction_id}/settle',
    args: [tx, { in: 'body', name: 'status' }, { in: 'body', name: 'message', optional: true }],
    what: 'settle {transaction_id}',
    doc: 'Settles a pending transfer as `success` or `failed` (which refunds it).',
  },
  {
    group: 'clock',
    name: 'advance',
    operation: 'POST /clock/advance',
    args: [{ in: 'body', name: 'seconds' }],
    what: 'clock advance',
    admin: true,
    doc: "Moves virtual time on, running what fell due (expiries, payments, settlements, webhook retries). Admin token only: the clock is every company's.",
  },
  {
    group: 'outcomes',
    name: 'next',
    operation: 'POST /outcomes',
    args: [{ in: 'body', all: 'outcome' }],
    what: 'outcome',
    doc: 'Queues what the next matching transfers answer (`status`, `times`, `settle_after_seconds`...).',
  },
  {
    group: 'outcomes',
    name: 'clear',
    operation: 'DELETE /outcomes',
    answer: 'nothing',
    what: 'clear outcomes',
    doc: 'Drops the queued outcomes.',
  },
  {
    group: 'faults',
    name: 'add',
    operation: 'POST /faults',
    args: [{ in: 'body', all: 'fault' }],
    what: 'fault',
    doc: 'Makes contract calls fail or wait (`operation`, `status`, `delay_ms`, `times`); `retry_after` with a 503 sends `Retry-After`; `when: "after"` fails them after the write (the transfer exists, its answer is lost), `drop` closes the connection instead of answering.',
  },
  {
    group: 'faults',
    name: 'clear',
    operation: 'DELETE /faults',
    answer: 'nothing',
    what: 'clear faults',
    doc: 'Drops the queued faults.',
  },
  {
    group: 'requests',
    name: 'count',
    operation: 'GET /requests/count',
    args: [{ in: 'query', rest: 'filter', omit: ['limit', 'cursor'] }],
    answer: { field: 'count' },
    what: 'count requests',
    doc: 'How many journaled calls match (`path`, `method`, `status`): was it called twice?',
  },
  {
    name: 'readiness',
    operation: 'GET /readiness',
    args: [{ in: 'query', name: 'company_id', optional: true }],
    what: 'readiness',
    doc: "The readiness report (docs/READINESS.md): behaviours met, coverage and findings. A company's credentials read their own; the admin token every company's together, or `company_id`'s.",
  },
  {
    group: 'webhooks',
    name: 'subscribe',
    operation: 'POST /webhooks',
    args: [
      { in: 'body', name: 'url' },
      { in: 'body', name: 'events', optional: true },
      { in: 'body', rest: 'options' },
    ],
    what: 'subscribe {url}',
    doc: "Subscribes `url` to `events` (default: every event) and answers the subscription with its `whsec_` `secret`. A company's subscription gets its own events; the admin's, every company's unless `company_id` names one.",
  },
  {
    group: 'webhooks',
    name: 'waitForDelivery',
    byHand: {
      module: 'webhooks',
      python: 'wait_for_delivery(event=None, transaction_id=None, status=None, timeout=10)',
      answers: 'WebhookDelivery',
    },
    doc: 'The first delivery that matches (`status` default `delivered`), polling; it gives up after the timeout (Node `timeoutMs`, 10 s; Python `timeout` seconds, `TimeoutError`).',
  },
  {
    group: 'webhooks',
    name: 'check',
    operation: 'POST /webhooks/{webhook_id}/check',
    args: [{ in: 'path', name: 'webhook_id' }],
    what: 'check {webhook_id}',
    doc: "The receiver check (docs/READINESS.md#the-receiver-check) of a standard-format subscription's receiver: valid, duplicate, bad signature, stale timestamp, unknown type.",
  },
]
