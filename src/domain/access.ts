// Who may do what (docs/CONTRACT.md#errors-exactly): company activation and user permissions (checked before the body),
// then the user's Provider for the operation's direction (checked after it).
import { AppError } from './errors.js'
import { DIRECTION_OF, type Operation, type Principal } from './types.js'

export function assertMayCall(p: Principal, op: Operation): void {
  if (!p.company.apiActive) throw new AppError('api_inactive')
  if (!p.permissions.includes(op)) throw new AppError('not_enough_permissions')
}

export function assertProvider(p: Principal, op: Operation): void {
  const provider = p.providers[DIRECTION_OF[op]]
  if (!provider) throw new AppError('no_provider')
  if (!provider.operations.includes(op)) throw new AppError('provider_unsupported')
}
