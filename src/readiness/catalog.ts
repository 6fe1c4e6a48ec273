// The readiness catalog (docs/READINESS.md#the-catalog): the behaviours of the contract a suite can meet, each with a
// one-line "how" that a test follows literally on a fresh sandbox (test/readiness/catalog.test.ts),
// and the findings, each with its severity and advice. Ids are stable: reports, CI gates and
// docs/READINESS.md name them. `setup` is what the dashboard's button for a behaviour asks the
// control plane (nothing when the control plane cannot set it up by itself).

/** A control call that sets a behaviour up for the next matching calls. */
export type Setup =
  | {
      label: string
      call: { method: 'POST'; path: string; body: Record<string, unknown> }
      adminOnly?: boolean
      /** What a company, which may not make the call, does instead: a dashboard page (under /_sandbox/ui). */
      instead?: { label: string; page: string }
    }
  /** On a subscription of the caller's: chaos for its next deliveries, or the receiver check. */
  | { label: string; webhook: 'chaos'; body: Record<string, unknown> }
  | { label: string; webhook: 'check' }

export interface Behaviour {
  id: string
  how: string
  setup?: Setup
}

const fault = (operation: 'charge' | 'transfer', status: 500 | 501 | 503): Setup => ({
  label: `Inject a ${status} into the next ${operation}`,
  call: { method: 'POST', path: '/faults', body: { operation, status, times: 1 } },
})
const outcome = (status: 'pending' | 'failed'): Setup => ({
  label: `Make the next transfer ${status}`,
  call: { method: 'POST', path: '/outcomes', body: { status, times: 1 } },
})
const fastapi: Setup = {
  label: 'Answer 422s in the fastapi style (every company)',
  call: {
    method: 'POST',
    path: '/scenarios',
    body: { document: { settings: { validation_errors: 'fastapi' } } },
  },
  adminOnly: true,
}

/** A new tenant in a state (POST /_sandbox/companies): its credentials are shown once to call with. */
const tenant = (label: string, body: Record<string, unknown>): Setup => ({
  label,
  call: { method: 'POST', path: '/companies', body },
  adminOnly: true,
})
const inactive = tenant('Create an inactive company to call as', { api_active: false })
const noProvider = tenant('Create a company without Providers to call as', {
  providers: { in: null, out: null },
})

/** The credential a how names: the default scenario's main one (an own report names the company's: own.ts). */
export const MAIN = 'sandbox-client:sandbox-secret'
const CHARGE = 'POST /api/v1/hub/transactions/in {"amount": 1000}'
const TRANSFER =
  'POST /api/v1/hub/transactions/out {"amount": 1000, "pix_key": "maria@example.com", "pix_type": "EMAIL"}'
const faultHow = (operation: string, status: number, then: string) =>
  `POST /_sandbox/faults {"operation": "${operation}", "status": ${status}, "times": 1}, then ${then}`
// The same transfer sent again within a minute of a 5xx reads as a retry (retry_after_server_error),
// so the transfer a fault answers is one no other step sends.
const FAULTED_TRANSFER =
  'send a transfer with a description of its own (one sent again within 60 s of a 5xx reads as a retry)'
const FASTAPI =
  'POST /_sandbox/scenarios {"document": {"settings": {"validation_errors": "fastapi"}}}'

export const BEHAVIOURS = [
  { id: 'charge.created', how: `${CHARGE} as ${MAIN}` },
  {
    id: 'charge.unauthenticated',
    how: `${CHARGE} with a wrong secret (sandbox-client:wrong-secret)`,
  },
  {
    id: 'charge.forbidden',
    how: `${CHARGE} as inactive:inactive-secret (a company with api_active false)`,
    setup: inactive,
  },
  { id: 'charge.invalid', how: `POST /api/v1/hub/transactions/in {"amount": 0} as ${MAIN}` },
  {
    id: 'charge.invalid.fastapi',
    how: `${FASTAPI} (admin token), then POST /api/v1/hub/transactions/in {"amount": 0} as ${MAIN}; put "simple" back the same way`,
    setup: fastapi,
  },
  {
    id: 'charge.no_provider',
    how: `${CHARGE} as no-provider:no-provider-secret (a user without Providers)`,
    setup: noProvider,
  },
  {
    id: 'charge.unsupported',
    how: faultHow('charge', 501, 'create a charge'),
    setup: fault('charge', 501),
  },
  {
    id: 'charge.server_error',
    how: faultHow('charge', 500, 'create a charge'),
    setup: fault('charge', 500),
  },
  {
    id: 'charge.unavailable',
    how: faultHow('charge', 503, 'create a charge'),
    setup: fault('charge', 503),
  },
  { id: 'transfer.succeeded', how: `${TRANSFER} as ${MAIN}` },
  {
    id: 'transfer.pending',
    how: 'send a transfer to pix_key "pending@pix.example" (or with the header X-Sandbox-Outcome: pending)',
    setup: outcome('pending'),
  },
  {
    id: 'transfer.failed',
    how: 'send a transfer to pix_key "failed@pix.example" (or of amount 666, or with the header X-Sandbox-Outcome: failed)',
    setup: outcome('failed'),
  },
  {
    id: 'transfer.insufficient_balance',
    how: `${TRANSFER} as empty-balance:empty-balance-secret (balance 0)`,
    setup: {
      ...tenant('Create a company with a balance of 0 to call as', { balance: 0 }),
      instead: { label: 'Set a balance of 0 (Overview)', page: '#set-balance' },
    },
  },
  {
    id: 'transfer.invalid',
    how: 'send a transfer with "pix_type": "CPF" and "pix_key": "maria@example.com" (a key that does not fit its type)',
  },
  {
    id: 'transfer.invalid.fastapi',
    how: `${FASTAPI} (admin token), then send a transfer with "pix_type": "CPF" and "pix_key": "maria@example.com"; put "simple" back the same way`,
    setup: fastapi,
  },
  {
    id: 'transfer.unauthenticated',
    how: `${TRANSFER} with a wrong secret (sandbox-client:wrong-secret)`,
  },
  {
    id: 'transfer.forbidden',
    how: `${TRANSFER} as inactive:inactive-secret (a company with api_active false)`,
    setup: inactive,
  },
  {
    id: 'transfer.no_provider',
    how: `${TRANSFER} as no-provider:no-provider-secret (a user without Providers)`,
    setup: noProvider,
  },
  {
    id: 'transfer.unsupported',
    how: `${TRANSFER} as charges-only:charges-only-secret (its out Provider supports no transfer), or ${faultHow('transfer', 501, 'send a transfer')}`,
    setup: fault('transfer', 501),
  },
  {
    id: 'transfer.server_error',
    how: faultHow('transfer', 500, FAULTED_TRANSFER),
    setup: fault('transfer', 500),
  },
  {
    id: 'transfer.unavailable',
    how: faultHow('transfer', 503, FAULTED_TRANSFER),
    setup: fault('transfer', 503),
  },
  {
    id: 'transfer.answer_lost',
    how: 'POST /_sandbox/faults {"operation": "transfer", "status": 500, "when": "after", "times": 1} (or "drop": true instead of the status), then send a transfer of an amount and pix_key no other step sends within a minute: it went through, and your client must not send it again (reconcile from its webhook or your records)',
    setup: {
      label: 'Lose the answer of the next transfer, after it went through',
      call: {
        method: 'POST',
        path: '/faults',
        body: { operation: 'transfer', status: 500, when: 'after', times: 1 },
      },
    },
  },
  { id: 'company.read', how: `GET /api/v1/user/company as ${MAIN}` },
  // With the company's client id, not without a header: a call that names no client belongs to no company's report.
  {
    id: 'company.unauthenticated',
    how: 'GET /api/v1/user/company with a wrong secret (sandbox-client:wrong-secret)',
  },
  {
    id: 'webhook.charge.paid',
    how: 'subscribe a receiver that answers 2xx (POST /_sandbox/webhooks {"url": "<your receiver>"}), create a charge, then POST /_sandbox/charges/{transaction_id}/pay',
  },
  {
    id: 'webhook.charge.cancelled',
    how: 'with a subscription, create a charge, then POST /_sandbox/charges/{transaction_id}/cancel (or let it expire: POST /_sandbox/clock/advance {"seconds": 3600}, admin token)',
    setup: {
      label: 'Move the clock 1 h (pending charges expire)',
      call: { method: 'POST', path: '/clock/advance', body: { seconds: 3600 } },
      adminOnly: true,
    },
  },
  { id: 'webhook.transfer.succeeded', how: `with a subscription, ${TRANSFER}` },
  {
    id: 'webhook.transfer.failed',
    how: 'with a subscription, send a transfer to pix_key "failed@pix.example"',
    setup: outcome('failed'),
  },
  {
    id: 'transfer.pending_settled',
    how: 'with a subscription, send a transfer to pix_key "pending@pix.example", then POST /_sandbox/transfers/{transaction_id}/settle {"status": "success"} (or let it settle: POST /_sandbox/clock/advance {"seconds": 60}, admin token)',
    setup: {
      label: 'Make the next transfer pending, settled 5 s later',
      call: {
        method: 'POST',
        path: '/outcomes',
        body: { status: 'pending', settle_after_seconds: 5, final_status: 'success', times: 1 },
      },
    },
  },
  {
    id: 'webhook.retried',
    how: 'PUT /_sandbox/webhooks/{id}/chaos {"drop": 1}, POST /_sandbox/webhooks/{id}/test, DELETE /_sandbox/webhooks/{id}/chaos, then POST /_sandbox/webhooks/deliveries/{delivery id}/retry',
  },
  {
    id: 'webhook.duplicate',
    how: 'PUT /_sandbox/webhooks/{id}/chaos {"duplicate": 1}, then POST /_sandbox/webhooks/{id}/test',
    setup: { label: 'Duplicate every delivery (chaos)', webhook: 'chaos', body: { duplicate: 1 } },
  },
  {
    id: 'webhook.bad_signature_rejected',
    how: 'POST /_sandbox/webhooks/{id}/check (the receiver check), or PUT /_sandbox/webhooks/{id}/chaos {"bad_signature": 1} then POST /_sandbox/webhooks/{id}/test',
    setup: { label: 'Check the receiver', webhook: 'check' },
  },
] as const satisfies readonly Behaviour[]

export type BehaviourId = (typeof BEHAVIOURS)[number]['id']
export const BEHAVIOUR_IDS = BEHAVIOURS.map((b) => b.id) as [BehaviourId, ...BehaviourId[]]
/** Each id's place in BEHAVIOURS: counts are kept in an array in that order. */
export const B = Object.fromEntries(BEHAVIOURS.map((b, i) => [b.id, i])) as Record<
  BehaviourId,
  number
>

export const SEVERITIES = ['error', 'warning', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export interface Finding {
  id: string
  severity: Severity
  advice: string
}

export const FINDINGS = [
  {
    id: 'production_credentials',
    severity: 'error',
    advice:
      "Production keys must never leave production: read credentials from the environment, and give test runs the sandbox's own (sandbox-client:sandbox-secret, or a tenant's).",
  },
  {
    id: 'missing_content_type',
    severity: 'error',
    advice:
      'Send Content-Type: application/json with every POST body: without it the real service does not read the body as JSON, and refuses it (422).',
  },
  {
    id: 'paid_twice',
    severity: 'error',
    advice:
      'A transfer whose answer was lost had gone through, and the one sent after it paid again. After a 5xx, a dropped connection or your own timeout, reconcile first (its transfer.* webhook carries amount, pix_key and description; or your records), and send again only what surely did not go through.',
  },
  {
    id: 'retried_permanent_error',
    severity: 'error',
    advice:
      'A 501, a 403 or a 422 "no Provider" does not pass by retrying: the Provider, the permission or the account must change first. Surface it (a failed job, an alert) instead of treating it as temporary.',
  },
  {
    id: 'receiver_accepts_bad_signature',
    severity: 'error',
    advice:
      'Verify webhook-signature (HMAC-SHA256 of "id.timestamp.body" keyed with the bytes your whsec_ secret encodes; the standardwebhooks library does it) and answer 4xx when it does not match: anyone can POST to your endpoint.',
  },
  {
    id: 'receiver_accepts_stale_timestamp',
    severity: 'error',
    advice:
      "Refuse (4xx) deliveries whose webhook-timestamp is more than 5 minutes from your clock, so a captured delivery cannot be replayed; standardwebhooks' verify() checks it.",
  },
  {
    id: 'receiver_rejects_valid_signature',
    severity: 'error',
    advice:
      'Your receiver refused correctly signed, fresh deliveries, so it never credits a payment. Key the HMAC with the bytes the secret encodes (base64-decode what follows whsec_), not with the whsec_ text; the standardwebhooks library does it.',
  },
  {
    id: 'paid_twice_unconfirmed',
    severity: 'warning',
    advice:
      "A transfer whose answer was lost had gone through, and another of the same amount to the same pix_key, with another description, followed after your receiver acknowledged the first one's webhook. A new payout made knowing (another order to the same seller) is fine; a re-send of the first paid twice: check the two transfers named, and reconcile before sending again.",
  },
  {
    id: 'receiver_rejects_unknown_type',
    severity: 'warning',
    advice:
      'Answer 2xx to event types you do not handle, and ignore them: a refusal is retried for nothing, and new event types may come at any time. Refuse only what fails the signature or timestamp check.',
  },
  {
    id: 'lenient_amount',
    severity: 'warning',
    advice:
      'Send amount as a JSON integer of cents (1000, not "1000", 10.0 or true): it was accepted only because validation is lax, which the contract does not promise.',
  },
  {
    id: 'retry_after_server_error',
    severity: 'warning',
    advice:
      'Do not send a transfer again after a 5xx, a dropped connection or your own timeout without checking first: it may have gone through (or still be under way), and the API has no idempotency key. Reconcile (your webhook, your records), then decide.',
  },
  {
    id: 'ignored_retry_after',
    severity: 'warning',
    advice:
      'After a 503, wait at least its Retry-After before calling that operation again, and back off with jitter.',
  },
  {
    id: 'receiver_slow',
    severity: 'warning',
    advice:
      'Answer webhooks within 5 s: acknowledge (2xx) first and do the work afterwards, from a queue. An answer later than 15 s is a failed attempt, and the delivery is sent again.',
  },
  {
    id: 'receiver_rejects_duplicate',
    severity: 'warning',
    advice:
      'Deliveries come at least once: when a webhook-id you have already processed arrives again, answer 2xx without processing it twice.',
  },
  {
    id: 'trailing_slash',
    severity: 'info',
    advice:
      'Call contract paths without a trailing slash: each call costs a 307 round trip, and some clients drop the body or the Authorization header when they follow it.',
  },
  {
    id: 'missing_accept',
    severity: 'info',
    advice: 'Send Accept: application/json on contract calls, as the contract lists it.',
  },
] as const satisfies readonly Finding[]

export type FindingId = (typeof FINDINGS)[number]['id']
export const FINDING_IDS = FINDINGS.map((f) => f.id) as [FindingId, ...FindingId[]]
/** Each id's place in FINDINGS. */
export const F = Object.fromEntries(FINDINGS.map((f, i) => [f.id, i])) as Record<FindingId, number>

/** Severities from the most serious: `error` ranks 0. */
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s)

/**
 * What the sandbox cannot see, said beside the catalog (the report, the summary, docs/READINESS.md),
 * so that a report with no finding is not read as more than it is.
 */
export const NOT_SEEN = [
  {
    id: 'amount_unit',
    what: 'whether your amounts are cents: 1000 meant as R$ 1.000,00 is a valid R$ 10,00 here; compare what your users see with what you send',
  },
  {
    id: 'unknown_keys',
    what: "whether a pix_key is really its receiver's: the sandbox never issued your keys and accepts unknown ones by default (unknown_pix_keys: reject refuses them)",
  },
  {
    id: 'pending_booking',
    what: 'what your system books for a pending transfer: the money has left (debited), but the payout is final only when settled (transfer.succeeded, or transfer.failed and refunded)',
  },
  {
    id: 'receiver_work',
    what: 'what your receiver does behind its 2xx: that it credits each payment once, and only once, is for your own tests to prove',
  },
] as const
export type NotSeenId = (typeof NOT_SEEN)[number]['id']
export const NOT_SEEN_IDS = NOT_SEEN.map((n) => n.id) as [NotSeenId, ...NotSeenId[]]
