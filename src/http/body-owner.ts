// Whom a body still on its way is counted against (body-budget.ts): the company whose Basic
// credentials the request carries, the admin for the admin token, a dashboard session's person,
// or nobody. Asked only for a body that did not arrive with its headers, and only to choose the
// budget: nothing is answered here, and each route checks the credentials in its own order
// (docs/CONTRACT.md#order-of-checks), as before.
import type { Context } from 'hono'
import type { BodyOwner } from './body-budget.js'
import { parseBasic } from './auth.js'
import type { HttpDeps, Scope } from './env.js'
import { header } from './headers.js'
import { isAdminToken } from './sandbox/scope.js'

/** Who a body is counted against, from its request (a promise where finding out must wait). */
export type OwnerOf = (c: Context) => BodyOwner | Promise<BodyOwner>

type Deps = Pick<HttpDeps, 'sandbox' | 'authenticate' | 'adminToken'>

// The budget is the process's, shared by every sandbox it runs; each sandbox's owners are told
// apart by a tag, as two sandboxes' companies may share an id.
const tags = new WeakMap<object, string>()
let sandboxes = 0
const tagOf = (deps: Deps): string => {
  let tag = tags.get(deps.sandbox)
  if (tag === undefined) tags.set(deps.sandbox, (tag = `${++sandboxes}:`))
  return tag
}

/** The owner a control-plane scope (the admin, or a company) is counted as. */
export function scopeOwner(deps: Deps, scope: Scope): BodyOwner {
  return tagOf(deps) + (scope.admin ? '' : scope.companyId)
}

/** The owner of a request's body, from its credentials: `Bearer <admin token>` or a company's Basic credentials; anything else is nobody. */
export function credentialsOwner(deps: Deps): OwnerOf {
  const tag = tagOf(deps)
  return (c) => {
    const auth = header(c, 'authorization')
    if (auth === undefined) return null
    const space = auth.indexOf(' ')
    if (auth.slice(0, space).toLowerCase() === 'bearer')
      return isAdminToken(deps, auth.slice(space + 1).trim()) ? tag : null
    try {
      let principal = deps.authenticate.cached(auth)
      if (!principal) {
        const creds = parseBasic(auth)
        if (!creds) return null
        principal = deps.authenticate(creds.clientId, creds.secret, auth)
      }
      return tag + principal.company.id
    } catch {
      return null
    }
  }
}
