// Use case: what a payer's bank reads at a dynamic code's location (the BCB CobPayload of its
// charge, as of now), or 404 for a location no charge has.
import { notFound } from '../domain/errors.js'
import { cobPayload } from '../pix/location.js'
import type { Context } from './context.js'

export function presentLocation(ctx: Context, locationId: string): ReturnType<typeof cobPayload> {
  const charge = ctx.store.charges.byLocation(locationId)
  if (!charge) throw notFound('Location')
  return cobPayload(charge, ctx.clock.now())
}
