// Verifies client credentials. Secrets are high-entropy, so a single SHA-256 is the right hash
// (a slow KDF protects low-entropy passwords and would cost milliseconds per request); results
// are cached per secret until any identity row changes.
import { createHash, timingSafeEqual } from 'node:crypto'
import { AppError } from '../domain/errors.js'
import type { Environment, Principal } from '../domain/types.js'
import type { Store } from '../store/index.js'

export const hashSecret = (secret: string): Buffer =>
  createHash('sha256').update(secret, 'utf8').digest()

const NOT_AUTHENTICATED = new AppError('not_authenticated')
// Compared against when the client id is unknown, so both refusals take the same time.
const DUMMY_HASH = hashSecret('never a real secret')
const CACHE_LIMIT = 10_000

export interface Authenticator {
  /** Checks the credentials; `cacheKey` (default: the two of them) names the result for `cached`. */
  (clientId: string, secret: string, cacheKey?: string): Principal
  /** The principal last authenticated under `cacheKey`, if no identity has changed since. */
  cached(cacheKey: string): Principal | undefined
}

export function createAuthenticator(
  store: Store,
  environment: Environment = 'sandbox',
): Authenticator {
  const cache = new Map<string, { version: number; principal: Principal }>()
  // The last header looked up and what it found: a client sends the same header call after call,
  // and comparing it costs less than hashing it anew for the map (a new string every request).
  let lastKey: string | undefined
  let lastHit: { version: number; principal: Principal } | undefined
  const cached = (cacheKey: string): Principal | undefined => {
    const hit = cacheKey === lastKey ? lastHit : cache.get(cacheKey)
    if (!hit || hit.version !== store.identity.version()) return undefined
    lastKey = cacheKey
    lastHit = hit
    return hit.principal
  }
  const authenticate = (
    clientId: string,
    secret: string,
    cacheKey = `${clientId}\u0000${secret}`,
  ): Principal => {
    const hit = cached(cacheKey)
    if (hit) return hit
    // A known and an unknown client id do the same work up to here (one row read, one hash, one
    // comparison), so the time of a refusal does not tell them apart.
    const check = store.identity.credentialCheck(clientId, DUMMY_HASH)
    const matches = timingSafeEqual(hashSecret(secret), check.secretHash)
    if (!check.known || !matches || check.revoked || check.environment !== environment)
      throw NOT_AUTHENTICATED
    const principal = store.identity.principal(clientId)
    if (!principal) throw NOT_AUTHENTICATED
    if (cache.size >= CACHE_LIMIT) cache.clear()
    const entry = { version: store.identity.version(), principal }
    cache.set(cacheKey, entry)
    lastKey = cacheKey
    lastHit = entry
    return principal
  }
  return Object.assign(authenticate, { cached })
}

/**
 * The company and environment of the credential a client id and secret are, the secret checked
 * (whatever the credential's state); undefined when they are none. Readiness: production keys,
 * and whose a call answered before authentication (a trailing slash's 307) is.
 */
export function keyOwner(
  store: Store,
): (
  clientId: string,
  secret: string,
) => { companyId: string; environment: Environment } | undefined {
  return (clientId, secret) => {
    const owner = store.identity.clientOwner(clientId)
    return owner && timingSafeEqual(hashSecret(secret), owner.secretHash)
      ? { companyId: owner.companyId, environment: owner.environment }
      : undefined
  }
}
