// Readiness from the contract's calls: which behaviour an answer meets (by path and status, and
// the answer's own text for a 422's kind or a transfer's status), and the findings a call shows
// (production keys, content type, accept, a lenient amount, a trailing slash, Retry-After
// ignored, a transfer sent again after a failure). O(1) per call, and allocation-free unless a
// finding is seen for the first time or a company has a recent failed transfer.
import { timingSafeEqual } from 'node:crypto'
import type { Micros } from '../clock.js'
import { parseBasic } from '../http/auth.js'
import { ERRORS } from '../http/errors.js'
import { hashSecret } from '../operations/authenticate.js'
import { lenientAmount } from './amount.js'
import { NO_COMPANY, type Entry } from './book.js'
import { B, F } from './catalog.js'
import type { Observing } from './observing.js'

/** A contract call as it was answered; the HTTP layer fills one object again and again (journal.ts). */
export interface RequestSeen {
  method: string
  path: string
  status: number
  /** The company of the authenticated principal; null when the call was not authenticated. */
  companyId: string | null
  /** The authenticated principal's client id; null when the call was not authenticated. */
  clientId: string | null
  authorization: string | undefined
  contentType: string | undefined
  accept: string | undefined
  requestBody: string | null
  responseBody: string | null
  /** The answer's Retry-After, read for 503s only. */
  retryAfter: string | null
  /** The client had closed the connection before the answer was ready. */
  dropped: boolean
  /** Virtual time of arrival, and performance.now() at arrival. */
  at: Micros
  arrivedMs: number
}

export const CONTRACT_PREFIX = '/api/v1/'
const CHARGE = '/api/v1/hub/transactions/in'
const TRANSFER = '/api/v1/hub/transactions/out'
const COMPANY = '/api/v1/user/company'
const OAUTH_COMPANY = '/api/v1/oauth/user/company'

const NO_PROVIDER = JSON.stringify({ detail: ERRORS.no_provider.detail })
const INSUFFICIENT = JSON.stringify({ detail: ERRORS.insufficient_balance.detail })
/** A 422 for the X-Sandbox-Outcome header, not for the body. */
const OUTCOME_HEADER = '{"detail":"X-Sandbox-Outcome:'
/** A transfer's answer starts with its status (create-transfer.ts writes it first). */
const transferStatus = (body: string | null): number =>
  body === null ? -1
  : body.startsWith('{"status":"success"') ? B['transfer.succeeded']
  : body.startsWith('{"status":"pending"') ? B['transfer.pending']
  : body.startsWith('{"status":"failed"') ? B['transfer.failed']
  : -1

/** A transfer sent again within this long of a 5xx or a dropped connection is a retry. */
export const RETRY_WINDOW_MS = 60_000
/** Failed transfers remembered per company for that judgement. */
const FAILURES_KEPT = 16

const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/i
const isJsonType = (v: string | undefined) => v !== undefined && (v === 'application/json' || JSON_TYPE.test(v))
/** `*\/*` and `application/*` accept JSON too: only a call that leaves JSON out (or says nothing) is told. */
const acceptsJson = (v: string | undefined) => v !== undefined && (v.includes('application/json') || v.includes('*/*') || v.includes('application/*'))

export function requestObserver({ book, store, nowMs, example }: Observing): (o: RequestSeen) => void {
  /** The company a call belongs to: its principal's, else the one its Basic client id names. */
  function ownerOf(o: RequestSeen): string {
    if (o.companyId !== null) return o.companyId
    const creds = o.authorization === undefined ? null : parseBasic(o.authorization)
    return (creds && store.identity.clientOwner(creds.clientId)?.companyId) ?? NO_COMPANY
  }

  /** Production keys: a production credential named with its own secret. */
  function production(authorization: string | undefined): boolean {
    const creds = authorization === undefined ? null : parseBasic(authorization)
    const owner = creds && store.identity.clientOwner(creds.clientId)
    return !!owner && owner.environment === 'production' && timingSafeEqual(hashSecret(creds!.secret), owner.secretHash)
  }

  function behaviourOf(operation: 'charge' | 'transfer' | 'company', status: number, body: string | null): number {
    if (operation === 'company') return status === 200 ? B['company.read'] : status === 401 ? B['company.unauthenticated'] : -1
    const charge = operation === 'charge'
    switch (status) {
      case 200:
        return charge ? B['charge.created'] : transferStatus(body)
      case 401:
        return charge ? B['charge.unauthenticated'] : B['transfer.unauthenticated']
      case 403:
        return charge ? B['charge.forbidden'] : B['transfer.forbidden']
      case 422:
        if (body === NO_PROVIDER) return charge ? B['charge.no_provider'] : B['transfer.no_provider']
        if (!charge && body === INSUFFICIENT) return B['transfer.insufficient_balance']
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

  /**
   * What makes two transfers "the same" (F2): amount, key and description, as sent, by the same
   * client: another user of the company sending the same body pays from another account.
   */
  function transferKey(o: RequestSeen): string | null {
    if (o.requestBody === null) return null
    try {
      const t = JSON.parse(o.requestBody) as { amount?: unknown; pix_key?: unknown; description?: unknown }
      const client = o.clientId ?? (o.authorization === undefined ? null : (parseBasic(o.authorization)?.clientId ?? null))
      return t === null || typeof t !== 'object' ? null : JSON.stringify([client, t.amount, t.pix_key, t.description ?? null])
    } catch {
      return null
    }
  }

  function judgeTransfer(owner: string, e: Entry, o: RequestSeen): void {
    // A 501 says the operation is not supported: nothing went through, and sending it again is harmless.
    const failedNow = (o.status >= 500 && o.status !== 501) || o.dropped
    if (!failedNow && e.failedTransfers === null) return
    const key = transferKey(o)
    if (key === null) return
    if (e.failedTransfers !== null) {
      const recent = e.failedTransfers.filter((f) => o.arrivedMs - f.atMs < RETRY_WINDOW_MS)
      // Only a call sent after the failure was answered is a retry of it, not one sent beside it.
      const earlier = recent.find((f) => f.key === key && f.atMs <= o.arrivedMs)
      if (earlier && !book.again(owner, e, F.retry_after_server_error)) {
        const seconds = ((o.arrivedMs - earlier.atMs) / 1000).toFixed(1)
        book.first(owner, e, F.retry_after_server_error, example(o.method, o.path, o.at, `the same transfer (amount, pix_key and description) sent again ${seconds} s after ${earlier.status}`))
      }
      e.failedTransfers = recent.length ? recent : null
    }
    if (failedNow) {
      const list = (e.failedTransfers ??= [])
      list.push({ key, atMs: nowMs(), status: o.dropped ? 'a dropped connection' : `a ${o.status}` })
      if (list.length > FAILURES_KEPT) list.shift()
    }
  }

  /** A finding of a call: counted when seen before, recorded with its example the first time only. */
  function noted(owner: string, e: Entry, finding: number, o: RequestSeen, what: () => string): void {
    if (!book.again(owner, e, finding)) book.first(owner, e, finding, example(o.method, o.path, o.at, what()))
  }

  function request(o: RequestSeen): void {
    const path = o.path
    if (!path.startsWith(CONTRACT_PREFIX)) return
    const operation =
      path === CHARGE && o.method === 'POST' ? 'charge' : path === TRANSFER && o.method === 'POST' ? 'transfer' : (path === COMPANY || path === OAUTH_COMPANY) && o.method === 'GET' ? 'company' : null
    const slash = o.status === 307
    // Whatever the answer: a body refused before authentication (invalid JSON) carried them too.
    const productionKeys = o.companyId === null && production(o.authorization)
    if (operation === null && !slash && !productionKeys) return
    const owner = ownerOf(o)
    const e = book.entry(owner, o.at)
    if (!e) return
    if (productionKeys) {
      // Worded without secret names, which the journal's redaction would take for a secret's.
      noted(owner, e, F.production_credentials, o, () => `production keys (a production client id with its matching key), answered ${o.status}`)
    }
    if (slash) {
      if (!book.again(owner, e, F.trailing_slash)) book.first(owner, e, F.trailing_slash, example(o.method, path, o.at, 'answered 307, to the same path without the trailing slash'))
      return
    }
    if (operation === null) return
    const behaviour = behaviourOf(operation, o.status, o.responseBody)
    if (behaviour >= 0) book.meet(owner, e, behaviour)
    if (!acceptsJson(o.accept) && !book.again(owner, e, F.missing_accept)) {
      book.first(owner, e, F.missing_accept, example(o.method, path, o.at, o.accept === undefined ? 'no accept header' : `accept: ${o.accept}`))
    }
    if (operation !== 'company' && o.requestBody) {
      if (!isJsonType(o.contentType) && !book.again(owner, e, F.missing_content_type)) {
        const what = o.contentType === undefined ? 'without content-type' : `with content-type: ${o.contentType}`
        book.first(owner, e, F.missing_content_type, example(o.method, path, o.at, `a ${Buffer.byteLength(o.requestBody)}-byte body ${what}`))
      }
      const lenient = o.status === 200 ? lenientAmount(o.requestBody) : null
      if (lenient) noted(owner, e, F.lenient_amount, o, () => `${lenient}, accepted`)
    }
    // A call that arrived after a 503 was answered, before its Retry-After had passed.
    if (e.retryAfterUntil > o.arrivedMs && o.arrivedMs >= e.retryAfterSince) {
      noted(owner, e, F.ignored_retry_after, o, () => `called again ${((o.arrivedMs - e.retryAfterSince) / 1000).toFixed(1)} s after a 503 that asked Retry-After: ${e.retryAfterSeconds}`)
    }
    if (o.status === 503 && o.retryAfter !== null) {
      const seconds = Number(o.retryAfter)
      if (Number.isFinite(seconds) && seconds > 0) {
        const now = nowMs()
        e.retryAfterSince = now
        e.retryAfterSeconds = seconds
        e.retryAfterUntil = now + seconds * 1000
      }
    }
    if (operation === 'transfer') judgeTransfer(owner, e, o)
  }

  return request
}
