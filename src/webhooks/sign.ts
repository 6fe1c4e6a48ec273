// Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,` + base64 of
// HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with the bytes after `whsec_`.
import { createHmac, randomBytes } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'

/** A new secret; `bytes` from the sandbox's ids, so that SEED makes it reproducible. */
export const newSecret = (bytes: Buffer = randomBytes(24)): string =>
  SECRET_PREFIX + bytes.toString('base64')

export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false
  const raw = secret.slice(SECRET_PREFIX.length)
  return /^[A-Za-z0-9+/]+={0,2}$/.test(raw) && Buffer.from(raw, 'base64').length >= 16
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  return (
    'v1,' + createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')
  )
}
