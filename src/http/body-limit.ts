// Refuses bodies over the limit (413) before anything else runs. Hono's bodyLimit middleware
// reads `c.req.raw.body`, which makes @hono/node-server build a full Request for every call
// and costs more than the rest of a request; this one reads Content-Length, and only a chunked
// upload is read here, bounded, and handed to the request's usual readers.
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { AppError } from '../domain/errors.js'
import { errorResponse } from './errors.js'
import { header } from './headers.js'

/** The largest body any route reads: larger ones are answered 413 before anything else runs. */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * A 413 answer when the body is over the limit; undefined when the request may go on. Decided at
 * once from Content-Length; a promise only for a chunked upload, which is read here.
 */
export function refuseLargeBody(c: Context, maxBytes: number): Response | undefined | Promise<Response | undefined> {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  const length = header(c, 'content-length')
  if (length !== undefined && header(c, 'transfer-encoding') === undefined) {
    return Number(length) > maxBytes ? tooLarge(c) : undefined
  }
  return readChunked(c, maxBytes)
}

async function readChunked(c: Context, maxBytes: number): Promise<Response | undefined> {
  const incoming = (c.env as { incoming?: IncomingMessage & { rawBody?: Buffer } } | undefined)?.incoming
  if (!incoming) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) return tooLarge(c)
    chunks.push(chunk)
  }
  // @hono/node-server's text()/json() read `rawBody` when it is there.
  incoming.rawBody = Buffer.concat(chunks)
  return undefined
}

function tooLarge(c: Context): Response {
  // The rest of the upload is not read, so the connection cannot carry another request.
  c.header('Connection', 'close')
  return errorResponse(c, new AppError('body_too_large'))
}
