// The documented error responses of the contract, shared by its routes. Each status shows, as
// its examples, the body of every way it is reached: the texts come from the one table of
// details (errors.ts), so /docs shows under each status what the sandbox really answers.
import type { ErrorCode } from '../../domain/errors.js'
import { ERRORS } from '../errors.js'
import { ErrorResponse, INVALID_BODY_EXAMPLE, ValidationError } from './schemas.js'

type Status = 401 | 403 | 422 | 501

const DESCRIPTIONS: Record<Status, string> = {
  401: 'Missing, malformed, unknown, revoked or wrong-environment credentials (`WWW-Authenticate: Basic`).',
  403: "The company's API access is not active, or the user lacks the permission.",
  422: 'Invalid body, or no Provider configured.',
  501: "The user's Provider does not support this operation.",
}

/** The errors behind each status, for every operation; an operation adds its business rules to 422. */
const CODES: Record<Status, ErrorCode[]> = {
  401: ['not_authenticated'],
  403: ['api_inactive', 'not_enough_permissions'],
  422: ['no_provider'],
  501: ['provider_unsupported'],
}

const SUMMARIES: Partial<Record<ErrorCode, string>> = {
  not_authenticated: 'Wrong or missing credentials',
  api_inactive: "The company's API access is not active",
  not_enough_permissions: 'The user lacks the permission',
  no_provider: 'The user has no Provider',
  insufficient_balance: 'The balance does not cover the amount',
  provider_unsupported: 'The Provider does not support the operation',
}

const example = (code: ErrorCode) =>
  [code, { summary: SUMMARIES[code], value: { detail: ERRORS[code].detail } }] as const

function examplesOf(status: Status, rules: ErrorCode[]) {
  const codes = status === 422 ? [...CODES[status], ...rules] : CODES[status]
  const invalid =
    status === 422
      ? [['invalid_body', { summary: 'An invalid body', value: INVALID_BODY_EXAMPLE }] as const]
      : []
  return Object.fromEntries([...invalid, ...codes.map(example)])
}

/** The error responses of an operation: `rules` are the codes of its business rules (answered 422). */
export function errorResponses<S extends Status>(statuses: S[], rules: ErrorCode[] = []) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description:
          s === 422 && rules.length
            ? 'Invalid body, no Provider configured, or a business rule (e.g. insufficient balance).'
            : DESCRIPTIONS[s],
        content: {
          'application/json': {
            schema: s === 422 ? ValidationError : ErrorResponse,
            examples: examplesOf(s, rules),
          },
        },
      },
    ]),
  ) as unknown as Record<
    S,
    { description: string; content: { 'application/json': { schema: typeof ErrorResponse } } }
  >
}
