// GET /pix/qr/v2/{id}: the location of a dynamic code, as a payer's bank fetches it; and the
// JWKS that verifies it. `?format=json` answers the plain payload (a sandbox convenience).
import type { Hono } from 'hono'
import { LOCATION_PATH } from '../config.js'
import { presentLocation } from '../operations/present-location.js'
import type { LocationSigner } from '../pix/location.js'
import type { AppEnv, HttpDeps } from './env.js'

export function mountLocation(
  app: Hono<AppEnv>,
  deps: HttpDeps & { publicUrl: () => string },
  signer: LocationSigner,
): void {
  const ctx = deps.sandbox
  app.get('/.well-known/jwks.json', (c) => c.json(signer.jwks))
  app.get(`${LOCATION_PATH}:id`, (c) => {
    const payload = presentLocation(ctx, c.req.param('id'))
    if (c.req.query('format') === 'json') return c.json(payload)
    const jws = signer.sign(payload, `${deps.publicUrl()}/.well-known/jwks.json`)
    return c.body(jws, 200, { 'content-type': 'application/jose' })
  })
}
