// Refuses bodies over the limit (413) before anything else runs. Hono's bodyLimit middleware
// reads `c.req.raw.body`, which makes @hono/node-server build a full Request for every call
// and costs more than the rest of a request; this one reads Content-Length, and only a chunked
// upload is read here, bounded, and handed to the request's usual readers.
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { AppError } from '../domain/errors.js'
import { readBounded } from './body-budget.js'
import type { OwnerOf } from './body-owner.js'
import { errorResponse } from './errors.js'
import { header } from './headers.js'

/** The largest body any route reads: larger ones are answered 413 before anything else runs. */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * A 413 answer when the body is over the limit; undefined when the request may go on. Decided at
 * once from Content-Length; a promise only for a chunked upload, which is read here, within the
 * budget of `ownerOf`'s answer (body-budget.ts).
 */
export function refuseLargeBody(
  c: Context,
  maxBytes: number,
  ownerOf: OwnerOf,
): Response | undefined | Promise<Response | undefined> {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  const length = header(c, 'content-length')
  if (length !== undefined && header(c, 'transfer-encoding') === undefined) {
    return Number(length) > maxBytes ? tooLarge(c) : undefined
  }
  return readChunked(c, maxBytes, ownerOf)
}

async function readChunked(
  c: Context,
  maxBytes: number,
  ownerOf: OwnerOf,
): Promise<Response | undefined> {
  const incoming = (c.env as { incoming?: IncomingMessage & { rawBody?: Buffer } } | undefined)
    ?.incoming
  if (!incoming) return undefined
  const body = await readBounded(incoming, maxBytes, undefined, () => ownerOf(c))
  if (typeof body === 'string') return refusal(c, body)
  // @hono/node-server's text()/json() read `rawBody` when it is there.
  incoming.rawBody = body
  return undefined
}

/** Why a body was refused while it arrived: too large (413), or over the process's budget (503, body-budget.ts). */
export function bodyRefused(c: Context, why: 'too_large' | 'over_budget'): AppError {
  // The rest of the upload is not read, so the connection cannot carry another request; and no
  // later reader (the journal's) reads it either.
  c.header('Connection', 'close')
  const incoming = (c.env as { incoming?: IncomingMessage & { rawBody?: Buffer } } | undefined)
    ?.incoming
  if (incoming) incoming.rawBody = Buffer.alloc(0)
  return new AppError(why === 'too_large' ? 'body_too_large' : 'unavailable')
}

const refusal = (c: Context, why: 'too_large' | 'over_budget') =>
  errorResponse(c, bodyRefused(c, why))
const tooLarge = (c: Context) => refusal(c, 'too_large')
