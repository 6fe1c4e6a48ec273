// HTTP Basic authentication (docs/CONTRACT.md#errors-exactly): `Authorization: Basic base64(client_id:client_secret)`.
import type { Context } from 'hono'
import { AppError } from '../domain/errors.js'
import type { Principal } from '../domain/types.js'
import type { Authenticator } from '../operations/authenticate.js'
import type { AppEnv } from './env.js'
import { header } from './headers.js'
import { pyStrip } from './python-text.js'

const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

export interface BasicCredentials {
  clientId: string
  secret: string
}

/**
 * Parses the header as FastAPI's HTTPBasic does; null for every case it refuses (all of them a
 * plain 401): the scheme is the text before the first space, the token the rest, stripped as
 * Python strips; base64 decoded leniently (below), then ASCII; the first `:` separates.
 */
export function parseBasic(header: string | undefined): BasicCredentials | null {
  if (!header) return null
  const space = header.indexOf(' ')
  if ((space < 0 ? header : header.slice(0, space)).toLowerCase() !== 'basic') return null
  const bytes = b64decode(space < 0 ? '' : pyStrip(header.slice(space + 1)))
  if (!bytes || bytes.some((b) => b > 0x7f)) return null
  const decoded = bytes.toString('latin1')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

/**
 * Python's base64.b64decode (not `validate`): characters outside the alphabet are skipped, the
 * first complete padding ends the data, and a token that is not ASCII is refused. A canonical
 * token takes Node's decoder, which gives the same bytes.
 */
export function b64decode(token: string): Buffer | null {
  if (token.length % 4 === 0 && STRICT_BASE64.test(token)) return Buffer.from(token, 'base64')
  const out: number[] = []
  let quad = 0
  let left = 0
  let pads = 0
  for (let i = 0; i < token.length; i++) {
    const ch = token.charCodeAt(i)
    if (ch > 0x7f) return null
    if (ch === 0x3d) {
      if (quad >= 2 && quad + ++pads >= 4) return Buffer.from(out)
      continue
    }
    const v = ALPHABET.indexOf(token[i]!)
    if (v < 0) continue
    pads = 0
    if (quad === 0) left = v
    else if (quad === 1) out.push((left << 2) | (v >> 4)), (left = v & 0x0f)
    else if (quad === 2) out.push(((left << 4) | (v >> 2)) & 0xff), (left = v & 0x03)
    else out.push(((left << 6) | v) & 0xff)
    quad = (quad + 1) % 4
  }
  return quad === 0 ? Buffer.from(out) : null
}

/**
 * The key under which an in-process caller (the dashboard, which has signed its user in and
 * checked the credential it acts as) hands a contract route the principal, instead of Basic
 * credentials. A symbol: nothing arriving over HTTP can carry it.
 */
export const IN_PROCESS_PRINCIPAL = Symbol('in-process principal')

/**
 * Authenticates the request's Basic credentials and keeps the principal on the context. A header
 * seen before is looked up as it is, without decoding it again, while no identity has changed.
 */
export function authenticateRequest(c: Context<AppEnv>, authenticate: Authenticator): Principal {
  const raw = header(c, 'authorization')
  if (raw === undefined) {
    const given = (c.env as { [IN_PROCESS_PRINCIPAL]?: Principal } | undefined)?.[
      IN_PROCESS_PRINCIPAL
    ]
    if (given) {
      c.set('principal', given)
      return given
    }
  }
  let principal = raw === undefined ? undefined : authenticate.cached(raw)
  if (!principal) {
    const creds = parseBasic(raw)
    if (!creds) throw new AppError('not_authenticated')
    principal = authenticate(creds.clientId, creds.secret, raw)
  }
  c.set('principal', principal)
  return principal
}
