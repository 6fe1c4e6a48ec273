// Verifies client credentials. Secrets are high-entropy, so a single SHA-256 is the right hash
// (a slow KDF protects low-entropy passwords and would cost milliseconds per request); results
// are cached per secret until any identity row changes.
import { createHash, timingSafeEqual } from 'node:crypto'
import { AppError } from '../domain/errors.js'
import type { Environment, Principal } from '../domain/types.js'
import type { Store } from '../store/index.js'

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest()

const NOT_AUTHENTICATED = new AppError('not_authenticated')
// Compared against when the client id is unknown, so both refusals take the same time.
const DUMMY_HASH = hashSecret('never a real secret')
const CACHE_LIMIT = 10_000

export type Authenticator = (clientId: string, secret: string) => Principal

export function createAuthenticator(store: Store, environment: Environment = 'sandbox'): Authenticator {
  const cache = new Map<string, { version: number; principal: Principal }>()
  return (clientId, secret) => {
    const cacheKey = `${clientId}\u0000${secret}`
    const hit = cache.get(cacheKey)
    const version = store.identity.version()
    if (hit && hit.version === version) return hit.principal
    // A known and an unknown client id do the same work up to here (one row read, one hash, one
    // comparison), so the time of a refusal does not tell them apart.
    const check = store.identity.credentialCheck(clientId, DUMMY_HASH)
    const matches = timingSafeEqual(hashSecret(secret), check.secretHash)
    if (!check.known || !matches || check.revoked || check.environment !== environment) throw NOT_AUTHENTICATED
    const principal = store.identity.principal(clientId)
    if (!principal) throw NOT_AUTHENTICATED
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(cacheKey, { version, principal })
    return principal
  }
}
