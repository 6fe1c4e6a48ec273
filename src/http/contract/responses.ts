// The documented error responses of the contract, shared by its routes.
import { ErrorResponse, ValidationError } from './schemas.js'

const DESCRIPTIONS = {
  401: 'Missing, malformed, unknown, revoked or wrong-environment credentials (`WWW-Authenticate: Basic`).',
  403: 'The company\'s API access is not active, or the user lacks the permission.',
  422: 'Invalid body, no Provider configured, or a business rule (e.g. insufficient balance).',
  501: 'The user\'s Provider does not support this operation.',
} as const

export function errorResponses<S extends keyof typeof DESCRIPTIONS>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: DESCRIPTIONS[s], content: { 'application/json': { schema: s === 422 ? ValidationError : ErrorResponse } } },
    ]),
  ) as unknown as Record<S, { description: string; content: { 'application/json': { schema: typeof ErrorResponse } } }>
}
