// A contract route as one Hono handler: the edge rules, the journal, the order of checks (docs/CONTRACT.md#order-of-checks),
// the handler and the wait for the commit (or the end of the turn: turn-end.ts), in one function.
// Hono runs a lone handler without composing a chain of async middleware, and each step here
// returns a promise only when it has to wait: reading the body, a fault's delay, the answer's
// turn. On two cores the layers of async middleware cost a company call about a fifth of its CPU
// (docs/PERFORMANCE.md). The control plane and the dashboard keep the middleware (app.ts).
import type { Socket } from 'node:net'
import type { Context, ErrorHandler } from 'hono'
import type { z } from 'zod'
import { assertMayCall } from '../../domain/access.js'
import { AppError } from '../../domain/errors.js'
import type { Operation, Principal } from '../../domain/types.js'
import { authenticateRequest } from '../auth.js'
import { MAX_BODY_BYTES, refuseLargeBody } from '../body-limit.js'
import { readBody } from '../body.js'
import { credentialsOwner } from '../body-owner.js'
import { readFastApiBody } from '../fastapi-body.js'
import { header } from '../headers.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { ERRORS } from '../errors.js'
import { journaled, type Journaling, type Span } from '../journal.js'
import { after } from '../maybe-async.js'
import type { TurnEnd } from '../turn-end.js'
import type { Fault } from '../../store/faults.js'
import { rejectInvalidJson, validateBody, type RawBody } from '../validation.js'

const FAULT_DETAIL: Record<number, string> = {
  500: ERRORS.internal.detail,
  501: ERRORS.provider_unsupported.detail,
  503: ERRORS.unavailable.detail,
}

/** What every contract route shares: the journal, the edge rules and the error handler. */
export interface Edge {
  journaling: Journaling
  /** A 405 for HEAD where only GET is declared (fallback.ts). */
  refuseImplicitHead: (c: Context) => Response | undefined
  onError: ErrorHandler<AppEnv>
  /** When an answer with no commit to wait for is written (turn-end.ts). */
  turnEnd: TurnEnd
}

export interface Endpoint {
  /** The operation whose permission the caller needs; null for the company (any caller). */
  op: Operation | null
  body?: { schema: z.ZodType; laxIntFields?: readonly string[] }
  /** The checks after the body schema (docs/CONTRACT.md#order-of-checks) and the answer, for a caller who passed the checks; `input` is the validated body. */
  handle: (c: Context<AppEnv>, who: Principal, input: unknown) => Response
}

type Answer = Response | Promise<Response>

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type NodeEnv = { incoming?: { socket?: Socket } } | undefined
const socketOf = (c: Context<AppEnv>): Socket | undefined => (c.env as NodeEnv)?.incoming?.socket

/** The error a fault answers: its status, with the contract's `detail` for it (and Retry-After when asked). */
function faultError(c: Context<AppEnv>, fault: Fault): AppError {
  if (fault.retryAfter !== null) c.header('Retry-After', String(fault.retryAfter))
  return new AppError('injected_fault', FAULT_DETAIL[fault.status!], fault.status!)
}

/** A `drop` fault: the connection is closed with no answer at all (what `res` would have said is journaled). */
function dropConnection(c: Context<AppEnv>, span: Span, res: Response): Response {
  span.fault = 'drop'
  socketOf(c)?.destroy()
  return res
}

/** The handler of one contract route. */
export function contractEndpoint(
  deps: HttpDeps,
  edge: Edge,
  endpoint: Endpoint,
): (c: Context<AppEnv>) => Answer {
  const { store } = deps.sandbox
  const { op, body, handle } = endpoint
  const faultOp = op ?? 'company'
  const ownerOf = credentialsOwner(deps)

  /** The checks up to the body schema (docs/CONTRACT.md#order-of-checks) once the body (if any) is read, then the handler. */
  const checked = (c: Context<AppEnv>, span: Span, raw: RawBody | undefined): Answer => {
    const style = store.setup.settings().validation_errors
    if (raw) rejectInvalidJson(raw, style)
    const who = authenticateRequest(c, deps.authenticate)
    const fault = store.faults.take(faultOp, who.company.id)
    const operate = (): Response => {
      if (op) assertMayCall(who, op)
      const input = body ? validateBody(body.schema, raw!, style, body.laxIntFields) : undefined
      return handle(c, who, input)
    }
    if (!fault) return operate()
    // Held first: the client may give up meanwhile, and readiness must know when (watchClose).
    const held = fault.delayMs ? hold(c, span, who.company.id, fault.delayMs) : undefined
    if (!fault.after) {
      const strike = (): Response => {
        if (fault.status) throw faultError(c, fault)
        return operate()
      }
      return held ? held.then(strike) : strike()
    }
    // After the write: the operation takes effect (a refusal is answered as it is: nothing was
    // done, nothing is lost), then its answer is replaced by the fault's status, or lost with
    // the connection, once the delay (if any) has passed.
    const res = operate()
    span.effectStatus = res.status
    span.effectBody = span.responseBody
    const lose = (): Response => {
      if (fault.drop) return dropConnection(c, span, res)
      if (!fault.status) return res
      span.fault = 'after'
      throw faultError(c, fault)
    }
    // Committed first (a file store's group commit), so the lost answer hides a durable write.
    const written = held ? held.then(() => store.pendingCommit()) : store.pendingCommit()
    return written ? written.then(lose) : lose()
  }

  /**
   * Holds the call `delayMs`, noting when the client gives up (closes the connection) meanwhile:
   * readiness judges a transfer sent again from that moment, even while this one is still held.
   */
  const hold = (
    c: Context<AppEnv>,
    span: Span,
    companyId: string,
    delayMs: number,
  ): Promise<void> => {
    deps.sandbox.readiness?.held(companyId, delayMs)
    span.held = true
    const socket = socketOf(c)
    const closed = () => void (span.closedMs ??= performance.now())
    socket?.once('close', closed)
    return sleep(delayMs).then(() => void socket?.off('close', closed))
  }

  // Answers wait for the commit of what they wrote, or of what others wrote before they read
  // (group commit: see store/transactions.ts); with nothing to commit, for the end of the turn
  // while calls arrive together, so that the turn's answers are written together (turn-end.ts).
  const committed = (res: Answer): Answer => {
    const wait = store.pendingCommit() ?? edge.turnEnd()
    return wait ? wait.then(() => res) : res
  }

  /** Any failure, thrown now or later, answered as the contract answers it (its code kept for readiness). */
  const failed = (c: Context<AppEnv>, span: Span, err: unknown): Answer => {
    if (err instanceof AppError) span.errorCode = err.code
    return edge.onError(err as Error, c)
  }
  const guarded = (c: Context<AppEnv>, span: Span, run: () => Answer): Answer => {
    try {
      const res = run()
      return res instanceof Promise ? res.catch((err) => failed(c, span, err)) : res
    } catch (err) {
      return failed(c, span, err)
    }
  }

  const withBody = (c: Context<AppEnv>, span: Span): Answer =>
    guarded(c, span, () =>
      after(
        edge.refuseImplicitHead(c) ?? refuseLargeBody(c, MAX_BODY_BYTES, ownerOf),
        (refused) =>
          refused ??
          after(readBody(c, ownerOf), (bytes) => {
            let raw: RawBody | undefined
            try {
              raw = readFastApiBody(
                bytes,
                header(c, 'content-type'),
                store.setup.settings().strict_content_type,
              )
            } finally {
              // The decoded text when there is one (no second decode); the journal's reading otherwise.
              span.requestBody =
                raw && 'text' in raw && raw.text !== undefined ? raw.text : bytes.toString('utf8')
            }
            return after(checked(c, span, raw), (res) => committed(res))
          }),
      ),
    )

  const withoutBody = (c: Context<AppEnv>, span: Span): Answer =>
    guarded(
      c,
      span,
      () =>
        edge.refuseImplicitHead(c) ?? after(checked(c, span, undefined), (res) => committed(res)),
    )

  return journaled(edge.journaling, body ? withBody : withoutBody)
}
