// A contract call as readiness sees it, once answered: filled by the HTTP layer (http/journal.ts,
// one object again and again), read at once and kept by nobody.
import type { Micros } from '../clock.js'

export interface RequestSeen {
  method: string
  path: string
  /** The status answered (for a dropped connection: what the operation would have answered). */
  status: number
  /** The company of the authenticated principal; null when the call was not authenticated. */
  companyId: string | null
  /** The authenticated principal's client id; null when the call was not authenticated. */
  clientId: string | null
  /** The Basic credentials a call that did not authenticate named (whose 401 it is, production keys); null otherwise. */
  claimed: { clientId: string; secret: string } | null
  contentType: string | undefined
  /** The request's Content-Type names JSON as the real service reads it (`application/json`, `application/<x>+json`). */
  jsonType: boolean
  accept: string | undefined
  requestBody: string | null
  responseBody: string | null
  /** The answer's Retry-After, read for 503s only. */
  retryAfter: string | null
  /** The code of the error answered, when the contract refused the call (`no_provider`, ...). */
  errorCode: string | null
  /** No answer reached the client: it had closed the connection, or a `drop` fault closed it. */
  dropped: boolean
  /** A fault struck after the operation took effect: `after` answered its status instead, `drop` nothing. */
  fault: 'after' | 'drop' | null
  /** The status and text of the operation itself, before such a fault replaced them (else `status`, `responseBody`). */
  effectStatus: number
  effectBody: string | null
  /** performance.now() when the client closed the connection while a fault held the call; -1 otherwise. */
  closedMs: number
  /** A fault's delay held it (in-flight.ts counts it until now). */
  held: boolean
  /** Virtual time of arrival, and performance.now() at arrival. */
  at: Micros
  arrivedMs: number
}
