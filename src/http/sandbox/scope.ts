// Authorization of the control plane: `Bearer <admin token>` sees everything; a company's own
// Basic credentials see that company only (other companies' ids answer 404) and cannot run
// global operations (403).
import { timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { AppError, notFound } from '../../domain/errors.js'
import type { Principal } from '../../domain/types.js'
import { authenticateRequest } from '../auth.js'
import type { AppEnv, HttpDeps, Scope } from '../env.js'
import { header } from '../headers.js'

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The control plane takes both, so its 401 announces both. */
const CHALLENGES = ['Basic', 'Bearer'] as const

/**
 * The key under which an in-process caller (the dashboard, which has signed its user in already)
 * hands the scope to `app.request(..., env)`. A symbol: nothing arriving over HTTP can carry it.
 */
export const IN_PROCESS_SCOPE = Symbol('in-process scope')

/** Whether `token` is the admin token (compared in constant time). */
export const isAdminToken = (deps: Pick<HttpDeps, 'adminToken'>, token: string): boolean =>
  sameSecret(token, deps.adminToken)

/** The scope of a company's authenticated credentials: that company only. */
export const companyScope = (principal: Principal): Scope => ({
  admin: false,
  companyId: principal.company.id,
  principal,
})

export const ADMIN_ONLY = 'This operation needs the admin token (Authorization: Bearer <token>)'

/** Sets the request's scope from its credentials, or throws the refusal (401, or 403 for `admin`). */
export function controlScope(
  deps: HttpDeps,
  access: 'admin' | 'scoped',
): (c: Context<AppEnv>) => void {
  return (c) => {
    c.set('challenges', CHALLENGES)
    const scope = scopeOf(deps, c)
    if (access === 'admin' && !scope.admin) throw new AppError('forbidden', ADMIN_ONLY)
    c.set('scope', scope)
  }
}

function scopeOf(deps: HttpDeps, c: Context<AppEnv>): Scope {
  const given = (c.env as { [IN_PROCESS_SCOPE]?: Scope } | undefined)?.[IN_PROCESS_SCOPE]
  if (given) {
    if (!given.admin) c.set('principal', given.principal)
    return given
  }
  const auth = header(c, 'authorization') ?? ''
  const space = auth.indexOf(' ')
  const scheme = auth.slice(0, space).toLowerCase()
  if (scheme === 'bearer' && isAdminToken(deps, auth.slice(space + 1).trim()))
    return { admin: true }
  if (scheme === 'basic') return companyScope(authenticateRequest(c, deps.authenticate))
  throw new AppError('not_authenticated')
}

/** The company a request may see: its own for company credentials; any (or the asked one) for admin. */
export function companyFilter(scope: Scope, asked: string | undefined): string | undefined {
  if (scope.admin) return asked
  if (asked !== undefined && asked !== scope.companyId)
    throw new AppError('not_found', 'Company not found')
  return scope.companyId
}

/** The record, if it exists and the caller may see it; 404 otherwise (the same answer for both). */
export function visibleTo<T extends { companyId: string | null }>(
  scope: Scope,
  record: T | undefined,
  what: string,
): T {
  if (!record || (!scope.admin && record.companyId !== scope.companyId)) throw notFound(what)
  return record
}
