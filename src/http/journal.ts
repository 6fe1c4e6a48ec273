// Records every request in the journal (the journal's own endpoints, health checks, the
// documentation and the dashboard excepted, so polling them does not drown what a test suite
// wants to count), and tells the live views. Two ways in: `journal`, the middleware every route
// but the contract's goes through, and `journaled`, which the contract's routes are built with
// (contract/endpoint.ts) so that each of them is one handler (see there why).
import type { Context, MiddlewareHandler } from 'hono'
import { CONTRACT_PREFIX, type RequestSeen } from '../readiness/recorder.js'
import { parseBasic } from './auth.js'
import type { AppEnv, HttpDeps } from './env.js'
import { readBodyText } from './body.js'
import { credentialsOwner, type OwnerOf } from './body-owner.js'
import { header, rawHeaders, rawUrl } from './headers.js'
import { JsonText } from './json-text.js'
import type { Arrival, JournalRecord } from './request-journal.js'
import { isJsonContentType } from './fastapi-body.js'
import { attachSpan } from './journaled-text.js'

const SKIP =
  /^\/(?:_sandbox\/(?:requests|health|openapi\.json|ui)|docs|openapi\.json|favicon\.ico)(?:\/|$)/

/** One request on its way to the journal. */
export interface Span extends Arrival {
  /** performance.now() at the start; -1 when the clock was frozen. */
  readonly started: number
  /** performance.now() at the start, frozen clock or not (readiness judges how soon a client came back). */
  readonly arrivedMs: number
  readonly at: number
  /** The text the handler answered with `c.json`, kept on the way. */
  responseBody: string | null
  /** The request's body as read, when the handler read it itself (undefined: not read). */
  requestBody?: string | null
  // Set by the contract's endpoint, for readiness (contract/endpoint.ts): undefined on most calls.
  /** The code of the error answered, when an AppError was. */
  errorCode?: string
  /** An injected fault struck after the operation took effect: its status replaced the answer, or the connection was dropped. */
  fault?: 'after' | 'drop'
  /** The status and text the operation answered, before such a fault replaced them. */
  effectStatus?: number
  effectBody?: string | null
  /** performance.now() when the client closed the connection while the call was held (a delay fault). */
  closedMs?: number
  /** A fault's delay held the call. */
  held?: boolean
}

type Body = (data: string | null, arg?: unknown, headers?: Record<string, string>) => Response

const JSON_TYPE = Object.freeze({ 'Content-Type': 'application/json' })

/**
 * The body of a request whose handler did not read it, as the journal keeps it: none for a GET
 * or a 413 (never read), otherwise read now, while it is still small enough, within the
 * process's budget for bodies (body-budget.ts).
 */
const unreadBody = (
  c: Context<AppEnv>,
  status: number,
  ownerOf: OwnerOf,
): null | Promise<string | null> =>
  status === 413 || c.req.method === 'GET'
    ? null
    : Promise.resolve()
        .then(() => readBodyText(c, ownerOf))
        .catch(() => null)

/** A recorder bound to the dependencies: `open` a span as a request starts, `close` it with the answer. */
export function createJournaling(deps: HttpDeps) {
  const { clock } = deps.sandbox
  // One record filled again for every request: the journal copies it and readiness reads it at
  // once, neither keeps it.
  const record: JournalRecord = {
    at: 0,
    method: '',
    path: '',
    query: '',
    status: 0,
    durationMs: 0,
    companyId: null,
    rawHeaders: [],
    requestBody: null,
    responseBody: null,
    dropped: false,
    admin: false,
  }
  return {
    /** The count of contract calls in flight (readiness's), when there is one. */
    flights: () => deps.sandbox.readiness?.flights,
    /** Whom a body the journal reads itself is counted against (body-budget.ts). */
    ownerOf: credentialsOwner(deps),
    open(c: Context<AppEnv>): Span {
      // While the clock is frozen no time passes for the sandbox: a request takes 0 ms, and a
      // frozen sandbox's journal reads the same from run to run (START_TIME with SEED).
      const arrivedMs = performance.now()
      const span: Span = {
        started: clock.frozen() ? -1 : arrivedMs,
        arrivedMs,
        at: clock.now(),
        responseBody: null,
        id: 0,
        seen: 0,
      }
      deps.journal.arrive(span)
      attachSpan(c, span)
      // Keep the text the handler answers instead of re-reading the response stream; this is
      // Hono's own c.json, with the text kept on the way.
      const body = c.body as Body
      c.json = ((object: unknown, arg?: unknown, headers?: Record<string, string>) => {
        span.responseBody =
          object instanceof JsonText ? object.text : (JSON.stringify(object) ?? null)
        return body(
          span.responseBody,
          arg,
          headers ? { 'Content-Type': 'application/json', ...headers } : JSON_TYPE,
        )
      }) as unknown as typeof c.json
      return span
    },
    /**
     * Records the request as its answer is handed to the server, before the process reads
     * another request, so a caller who got the answer finds it in the journal. In the same task:
     * deferring it to a tick of its own cost a company call ~2% of its CPU (docs/PERFORMANCE.md).
     */
    close(
      c: Context<AppEnv>,
      span: Span,
      status: number,
      requestBody: string | null,
      res: Response,
    ): void {
      const url = rawUrl(c)
      const q = url.indexOf('?')
      const companyId = c.get('principal')?.company.id ?? null
      const entry = record
      entry.arrival = span
      // The virtual time it arrived at; a request that moved the clock back (a reset, a clock
      // reset) is shown at the time it moved it to, among the requests that follow it.
      entry.at = Math.min(span.at, clock.now())
      entry.method = c.req.method
      entry.path = c.req.path
      entry.query = q < 0 ? '' : url.slice(q)
      entry.status = status
      entry.durationMs =
        span.started < 0 ? 0 : Math.round((performance.now() - span.started) * 1000) / 1000
      entry.companyId = companyId
      // The admin's entries are kept apart from those of callers without credentials.
      entry.admin = c.get('scope')?.admin === true
      // The headers as received; the journal redacts when it is read.
      entry.rawHeaders = rawHeaders(c)
      entry.requestBody = requestBody
      entry.responseBody = span.responseBody
      entry.dropped = span.fault === 'drop'
      // Readiness sees contract calls only. Whether the client hung up is read before the answer
      // is written (afterwards the server may close the connection itself).
      const readiness = entry.path.startsWith(CONTRACT_PREFIX) ? deps.sandbox.readiness : undefined
      try {
        deps.journal.record(entry)
        if (readiness) {
          const dropped =
            (c.env as { incoming?: { socket?: { destroyed?: boolean } } } | undefined)?.incoming
              ?.socket?.destroyed === true
          const retryAfter = status === 503 ? res.headers.get('retry-after') : null
          readiness.request(seen(c, entry, span, dropped, retryAfter))
        } else if (entry.method !== 'GET') {
          // A control call that changes something is a test's own step (setup, an assertion's
          // action): readiness takes a call sent after one for a new one, not a client's retry.
          const scope = c.get('scope')
          if (scope)
            deps.sandbox.readiness?.controlled(scope.admin ? null : scope.companyId, span.arrivedMs)
        }
        deps.sandbox.onChange?.({ kind: 'request', companyId })
      } catch (err) {
        // A fault of the journal or of readiness is a bug, but not the caller's: its answer
        // stands, and the error is thrown in a task of its own.
        setImmediate(() => {
          throw err
        })
      }
    },
  }
}

export type Journaling = ReturnType<typeof createJournaling>

// One object filled again for every contract call: readiness reads it at once and keeps nothing of it.
const scratch: RequestSeen = {
  method: '',
  path: '',
  status: 0,
  companyId: null,
  clientId: null,
  claimed: null,
  contentType: undefined,
  jsonType: false,
  accept: undefined,
  requestBody: null,
  responseBody: null,
  retryAfter: null,
  errorCode: null,
  dropped: false,
  fault: null,
  effectStatus: 0,
  effectBody: null,
  closedMs: -1,
  held: false,
  at: 0,
  arrivedMs: 0,
}

function seen(
  c: Context<AppEnv>,
  e: JournalRecord,
  span: Span,
  dropped: boolean,
  retryAfter: string | null,
): RequestSeen {
  scratch.method = e.method
  scratch.path = e.path
  scratch.status = e.status
  scratch.companyId = e.companyId
  scratch.clientId = c.get('principal')?.clientId ?? null
  // The credentials a call that did not authenticate named: whose 401 it is, and production keys.
  scratch.claimed = e.companyId === null ? parseBasic(header(c, 'authorization')) : null
  scratch.contentType = header(c, 'content-type')
  // As the real service reads it (FastAPI 0.132 and later), whatever strict_content_type says here.
  scratch.jsonType = e.requestBody ? isJsonContentType(scratch.contentType, true) : false
  scratch.accept = header(c, 'accept')
  scratch.requestBody = e.requestBody
  scratch.responseBody = e.responseBody
  scratch.retryAfter = retryAfter
  scratch.errorCode = span.errorCode ?? null
  scratch.dropped = dropped
  scratch.fault = span.fault ?? null
  scratch.effectStatus = span.effectStatus ?? e.status
  scratch.effectBody = span.effectStatus === undefined ? e.responseBody : (span.effectBody ?? null)
  scratch.closedMs = span.closedMs ?? -1
  scratch.held = span.held === true
  scratch.at = span.at
  scratch.arrivedMs = span.arrivedMs
  return scratch
}

/**
 * The middleware. `inner` runs inside the journaled span, as part of this same middleware: each
 * middleware layer costs every request an async frame, and the edge rules need none of their own.
 */
export function journal(
  journaling: Journaling,
  inner: MiddlewareHandler<AppEnv>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SKIP.test(c.req.path)) return inner(c, next)
    const span = journaling.open(c)
    const refused = await inner(c, next)
    if (refused) c.res = refused
    const status = c.res.status
    journaling.close(c, span, status, await unreadBody(c, status, journaling.ownerOf), c.res)
  }
}

/**
 * A handler recorded in the journal, which returns its answer without a promise when it has one
 * at once. `handle` sets `span.requestBody` when it reads the body; when it answered without
 * reading it (a refusal), the body is read here, as the middleware does.
 */
export function journaled(
  journaling: Journaling,
  handle: (c: Context<AppEnv>, span: Span) => Response | Promise<Response>,
): (c: Context<AppEnv>) => Response | Promise<Response> {
  // Each call is counted in flight from its arrival until readiness has seen its answer, so that
  // no verdict is given before (readiness/in-flight.ts).
  const finish = (c: Context<AppEnv>, span: Span, res: Response): Response | Promise<Response> => {
    const body =
      span.requestBody === undefined
        ? unreadBody(c, res.status, journaling.ownerOf)
        : span.requestBody
    if (body instanceof Promise)
      return body.then(
        (text) => (journaling.close(c, span, res.status, text, res), landed(), res),
        (err) => (landed(), Promise.reject(err)),
      )
    journaling.close(c, span, res.status, body, res)
    landed()
    return res
  }
  const landed = () => journaling.flights()?.answered()
  return (c) => {
    journaling.flights()?.arrived()
    const span = journaling.open(c)
    let res: Response | Promise<Response>
    try {
      res = handle(c, span)
    } catch (err) {
      landed()
      throw err
    }
    return res instanceof Promise
      ? res.then(
          (r) => finish(c, span, r),
          (err) => (landed(), Promise.reject(err)),
        )
      : finish(c, span, res)
  }
}
