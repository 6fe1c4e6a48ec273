// The closed set of failures the domain and the HTTP layer can raise. The HTTP layer maps each
// code to a status and a `detail` text in one table (http/errors.ts); the domain knows no HTTP.
export type ErrorCode =
  | 'not_authenticated'
  | 'api_inactive'
  | 'not_enough_permissions'
  | 'forbidden'
  | 'no_provider'
  | 'provider_unsupported'
  | 'insufficient_balance'
  | 'invalid_input'
  | 'not_found'
  | 'conflict'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'body_unreadable'
  | 'injected_fault'
  | 'unavailable'
  | 'internal'

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** Replaces the table's default detail text (e.g. "Charge not found", "amount: ..."). */
    readonly detail?: string,
    readonly status?: number,
  ) {
    super(detail ?? code)
    this.name = 'AppError'
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`)
export const conflict = (detail: string) => new AppError('conflict', detail)
