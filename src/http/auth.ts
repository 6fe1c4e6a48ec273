// HTTP Basic authentication (A1): `Authorization: Basic base64(client_id:client_secret)`.
import type { Context } from 'hono'
import { AppError } from '../domain/errors.js'
import type { Principal } from '../domain/types.js'
import type { Authenticator } from '../operations/authenticate.js'
import type { AppEnv } from './env.js'
import { header } from './headers.js'

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

export interface BasicCredentials {
  clientId: string
  secret: string
}

/** Parses the header; null for every malformed case (all of them are a plain 401). */
export function parseBasic(header: string | undefined): BasicCredentials | null {
  if (!header) return null
  const space = header.indexOf(' ')
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'basic') return null
  const token = header.slice(space + 1).trim()
  if (token.length % 4 !== 0 || !BASE64.test(token)) return null
  const decoded = Buffer.from(token, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

/**
 * Authenticates the request's Basic credentials and keeps the principal on the context. A header
 * seen before is looked up as it is, without decoding it again, while no identity has changed.
 */
export function authenticateRequest(c: Context<AppEnv>, authenticate: Authenticator): Principal {
  const raw = header(c, 'authorization')
  let principal = raw === undefined ? undefined : authenticate.cached(raw)
  if (!principal) {
    const creds = parseBasic(raw)
    if (!creds) throw new AppError('not_authenticated')
    principal = authenticate(creds.clientId, creds.secret, raw)
  }
  c.set('principal', principal)
  return principal
}
