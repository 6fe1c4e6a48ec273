// One table from error code to HTTP status and `detail` text, and the one error handler that
// renders every failure as `{detail}`: never a stack trace, never an HTML page.
import type { Context, ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { AppError, type ErrorCode } from '../domain/errors.js'
import type { Log } from '../log.js'
import { JsonText } from './json-text.js'
import { journalText } from './journaled-text.js'
import { pyDumps, Unwritable } from './python-dumps.js'

export const ERRORS: Record<ErrorCode, { status: ContentfulStatusCode; detail: string }> = {
  not_authenticated: { status: 401, detail: 'Not authenticated' },
  api_inactive: { status: 403, detail: 'API access is not active for this company' },
  not_enough_permissions: { status: 403, detail: 'Not enough permissions' },
  forbidden: { status: 403, detail: 'Forbidden' },
  no_provider: {
    status: 422,
    detail: 'User does not have a Provider configured. Please contact support.',
  },
  provider_unsupported: { status: 501, detail: 'Provider does not support this operation' },
  insufficient_balance: { status: 422, detail: 'Insufficient balance' },
  invalid_input: { status: 422, detail: 'Invalid input' },
  not_found: { status: 404, detail: 'Not Found' },
  conflict: { status: 409, detail: 'Conflict' },
  method_not_allowed: { status: 405, detail: 'Method Not Allowed' },
  body_too_large: { status: 413, detail: 'Request body too large' },
  body_unreadable: { status: 400, detail: 'There was an error parsing the body' },
  injected_fault: { status: 500, detail: 'Internal server error' },
  unavailable: { status: 503, detail: 'Service temporarily unavailable' },
  internal: { status: 500, detail: 'Internal server error' },
}

/** A 422 whose body is FastAPI's list of pydantic errors rather than a string. */
export class ValidationErrorList extends Error {
  constructor(readonly errors: unknown[]) {
    super('validation failed')
  }
}

/** Seconds a client is asked to wait after a 503 of ours (a full disk, say): long enough for someone to free space. */
export const RETRY_AFTER_SECONDS = 5

export function errorResponse(c: Context, err: AppError): Response {
  const entry = ERRORS[err.code]
  const status = (err.status ?? entry.status) as ContentfulStatusCode
  if (err.code === 'unavailable') c.header('Retry-After', String(RETRY_AFTER_SECONDS))
  if (err.code === 'not_authenticated')
    for (const scheme of c.get('challenges') ?? ['Basic'])
      c.header('WWW-Authenticate', scheme, { append: true })
  return c.json({ detail: err.detail ?? entry.detail }, status)
}

export function createErrorHandler(log: Log): ErrorHandler {
  return (err, c) => {
    if (err instanceof AppError) return errorResponse(c, err)
    if (err instanceof ValidationErrorList) {
      try {
        // Written as Python writes it: the echoed input keeps its number text and key order.
        return c.json(new JsonText(pyDumps({ detail: err.errors })) as never, 422)
      } catch (e) {
        if (!(e instanceof Unwritable)) throw e
        // What Starlette's JSONResponse cannot write (NaN, a lone surrogate, bytes that are not
        // UTF-8) fails inside FastAPI, whose server answers a plain-text 500.
        journalText(c, 'Internal Server Error')
        return c.body('Internal Server Error', 500, { 'Content-Type': 'text/plain; charset=utf-8' })
      }
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Raised by Hono's own helpers (e.g. a malformed JSON body on a control route).
      const detail = err.status === 400 ? 'body: invalid JSON' : err.message || 'Bad Request'
      return c.json({ detail }, err.status === 400 ? 422 : err.status)
    }
    log.error('unexpected failure', {
      method: c.req.method,
      path: c.req.path,
      error: String((err as Error)?.stack ?? err),
    })
    return c.json({ detail: ERRORS.internal.detail }, 500)
  }
}
