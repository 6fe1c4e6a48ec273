// Readiness from the contract's calls: which behaviour an answer meets (by path and status, and
// the answer's own text for a transfer's status or a 422's shape), and the findings a call shows
// (production keys, content type, accept, a lenient amount, a trailing slash; calls sent again:
// retries.ts). O(1) per call, and allocation-free unless a finding is seen for the first time or
// a company has a call that may be judged (retries.ts).
import { NO_COMPANY, type Entry } from './book.js'
import { lenientAmount } from './amount.js'
import { B, F } from './catalog.js'
import type { Observing } from './observing.js'
import type { RequestSeen } from './request-seen.js'
import type { RetryJudge } from './retries.js'

export const CONTRACT_PREFIX = '/api/v1/'
const CHARGE = '/api/v1/hub/transactions/in'
const TRANSFER = '/api/v1/hub/transactions/out'
const COMPANY = '/api/v1/user/company'
const OAUTH_COMPANY = '/api/v1/oauth/user/company'

/** A 422 for the X-Sandbox-Outcome header, not for the body. */
const OUTCOME_HEADER = '{"detail":"X-Sandbox-Outcome:'
/** The `fastapi` style's 422: a list of pydantic errors. */
const FASTAPI_422 = '{"detail":['
/** A transfer's answer starts with its status (create-transfer.ts writes it first). */
const transferStatus = (body: string | null): number =>
  body === null
    ? -1
    : body.startsWith('{"status":"success"')
      ? B['transfer.succeeded']
      : body.startsWith('{"status":"pending"')
        ? B['transfer.pending']
        : body.startsWith('{"status":"failed"')
          ? B['transfer.failed']
          : -1

/** Media ranges that admit JSON, compared case-insensitively: only a call that leaves JSON out (or says nothing) is told. */
const ACCEPTS_JSON = /(?:^|,)\s*(?:application\/json|application\/\*|\*\/\*)\s*(?:;|,|$)/i
const acceptsJson = (v: string | undefined) =>
  v !== undefined && (v === 'application/json' || v === '*/*' || ACCEPTS_JSON.test(v))

/** The company and environment of a client id and secret, the secret checked; undefined when they are no credential. */
export type KeyOwner = (
  clientId: string,
  secret: string,
) => { companyId: string; environment: 'sandbox' | 'production' } | undefined

export function requestObserver(
  observing: Observing,
  retries: RetryJudge,
  keyOwner: KeyOwner,
): (o: RequestSeen) => void {
  const { book, store, example } = observing

  /** The company whose behaviour an answer meets: its principal's, else the one its Basic client id names. */
  function behaviourOwner(o: RequestSeen): string {
    if (o.companyId !== null) return o.companyId
    return (o.claimed && store.identity.clientOwner(o.claimed.clientId)?.companyId) ?? NO_COMPANY
  }

  function behaviourOf(operation: 'charge' | 'transfer' | 'company', o: RequestSeen): number {
    const { status, responseBody: body } = o
    if (operation === 'company')
      return status === 200 ? B['company.read'] : status === 401 ? B['company.unauthenticated'] : -1
    const charge = operation === 'charge'
    switch (status) {
      case 200:
        return charge ? B['charge.created'] : transferStatus(body)
      case 401:
        return charge ? B['charge.unauthenticated'] : B['transfer.unauthenticated']
      case 403:
        return charge ? B['charge.forbidden'] : B['transfer.forbidden']
      case 422:
        if (o.errorCode === 'no_provider')
          return charge ? B['charge.no_provider'] : B['transfer.no_provider']
        if (!charge && o.errorCode === 'insufficient_balance')
          return B['transfer.insufficient_balance']
        if (body?.startsWith(OUTCOME_HEADER)) return -1
        return charge ? B['charge.invalid'] : B['transfer.invalid']
      case 500:
        return charge ? B['charge.server_error'] : B['transfer.server_error']
      case 501:
        return charge ? B['charge.unsupported'] : B['transfer.unsupported']
      case 503:
        return charge ? B['charge.unavailable'] : B['transfer.unavailable']
      default:
        return -1
    }
  }

  /** A finding of a call: counted when seen before, recorded with its example the first time only. */
  function noted(
    owner: string,
    e: Entry,
    finding: number,
    o: RequestSeen,
    what: () => string,
  ): void {
    if (!book.again(owner, e, finding))
      book.first(owner, e, finding, example(owner, o.method, o.path, o.at, what()))
  }

  /** The behaviours an answered call meets, in `owner`'s entry (the company its credentials name). */
  function meet(
    owner: string,
    e: Entry,
    o: RequestSeen,
    operation: 'charge' | 'transfer' | 'company',
  ): void {
    const behaviour = behaviourOf(operation, o)
    if (behaviour >= 0) book.meet(owner, e, behaviour)
    if (o.status === 422 && operation !== 'company' && o.responseBody?.startsWith(FASTAPI_422)) {
      book.meet(
        owner,
        e,
        operation === 'charge' ? B['charge.invalid.fastapi'] : B['transfer.invalid.fastapi'],
      )
    }
    if (operation === 'transfer' && (o.fault !== null || o.dropped) && o.effectStatus === 200)
      book.meet(owner, e, B['transfer.answer_lost'])
  }

  return function request(o: RequestSeen): void {
    const path = o.path
    if (!path.startsWith(CONTRACT_PREFIX)) return
    const operation =
      path === CHARGE && o.method === 'POST'
        ? 'charge'
        : path === TRANSFER && o.method === 'POST'
          ? 'transfer'
          : (path === COMPANY || path === OAUTH_COMPANY) && o.method === 'GET'
            ? 'company'
            : null
    const slash = o.status === 307
    // Whatever the answer: a body refused before authentication (invalid JSON) carried them too.
    const key = o.claimed === null ? undefined : keyOwner(o.claimed.clientId, o.claimed.secret)
    const productionKeys = key?.environment === 'production'
    if (operation === null && !slash && !productionKeys) return
    // Findings belong to the company that authenticated: anyone who knows a client id could
    // otherwise plant one in that company's report. The others go to the admin's report only;
    // but a trailing slash is answered before authentication, so right credentials name its company.
    const owner =
      o.companyId ?? (slash && key?.environment === 'sandbox' ? key.companyId : NO_COMPANY)
    const e = book.entry(owner, o.at)
    if (operation !== null && !slash) {
      // A 401's behaviour is the company's its client id names (one entry lookup more, for 401s only).
      const named = o.companyId === null ? behaviourOwner(o) : owner
      const own = named === owner ? e : book.entry(named, o.at)
      if (own) meet(named, own, o, operation)
    }
    if (!e) return
    if (productionKeys) {
      // Worded without secret names, which the journal's redaction would take for a secret's.
      noted(
        owner,
        e,
        F.production_credentials,
        o,
        () =>
          `production keys (a production client id with its matching key), answered ${o.status}`,
      )
    }
    if (slash)
      return noted(
        owner,
        e,
        F.trailing_slash,
        o,
        () => 'answered 307, to the same path without the trailing slash',
      )
    if (operation === null) return
    if (!acceptsJson(o.accept))
      noted(owner, e, F.missing_accept, o, () =>
        o.accept === undefined ? 'no accept header' : `accept: ${o.accept}`,
      )
    const body = o.requestBody
    if (operation !== 'company' && body) {
      if (!o.jsonType) {
        noted(
          owner,
          e,
          F.missing_content_type,
          o,
          () =>
            `a ${Buffer.byteLength(body)}-byte body ${o.contentType === undefined ? 'without content-type' : `with content-type: ${o.contentType}`}`,
        )
      }
      const lenient = o.effectStatus === 200 ? lenientAmount(body) : null
      if (lenient) noted(owner, e, F.lenient_amount, o, () => `${lenient}, accepted`)
    }
    if (o.companyId === null) return
    retries.retryAfter(owner, e, o, operation)
    if (operation !== 'company') retries.sent(owner, e, o, operation)
  }
}
