// Reads a request body once. The contract's bodies are then read as FastAPI reads them
// (fastapi-body.ts); the control plane's are JSON when the type is JSON or absent, raw text
// otherwise, and an empty body is no body at all.
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { readBounded } from './body-budget.js'
import { bodyRefused, MAX_BODY_BYTES } from './body-limit.js'
import type { OwnerOf } from './body-owner.js'
import { header } from './headers.js'
import { parsePython } from './python-json.js'
import type { RawBody } from './validation.js'

// JSON when the type is application/json or application/*+json.
const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i

/** A control-plane body: what the text says, by the request's content type (absent: JSON). */
export function parseRawBody(c: Context, text: string): RawBody {
  if (text === '') return { kind: 'empty' }
  const type = header(c, 'content-type')
  if (type !== undefined && !JSON_TYPE.test(type))
    return { kind: 'not-json', bytes: Buffer.from(text) }
  try {
    return { kind: 'json', value: JSON.parse(text) }
  } catch {
    const parsed = parsePython(text)
    return {
      kind: 'invalid-json',
      problem: 'problem' in parsed ? parsed.problem : { msg: 'Expecting value', pos: 0 },
    }
  }
}

// What @hono/node-server decodes bodies with (a leading BOM is dropped, as there).
const utf8 = new TextDecoder()
type Incoming = IncomingMessage & { rawBody?: Buffer }

/**
 * The body's bytes. Node's parser hands a request over as soon as its headers are parsed and
 * parses the rest of the packet after, so a small body sent with its headers is in the stream's
 * buffer one microtask later: when the buffer holds Content-Length bytes, they are taken from it
 * at once, instead of through the stream's events and a promise per chunk (a sixteenth of a
 * charge's CPU). A body still on its way is read within the budget of `ownerOf`'s answer
 * (body-budget.ts): over it, a 503 and the connection closed. Chunked ones were read by
 * refuseLargeBody; off Node, through Hono.
 */
export function readBody(c: Context, ownerOf: OwnerOf): Buffer | Promise<Buffer> {
  const incoming = (c.env as { incoming?: Incoming } | undefined)?.incoming
  const length = incoming?.headers['content-length']
  const viaHono = () => c.req.arrayBuffer().then((b) => Buffer.from(b))
  if (!incoming || length === undefined || incoming.headers['transfer-encoding'] !== undefined)
    return viaHono()
  return (
    takeBuffered(incoming, Number(length)) ??
    Promise.resolve().then(
      () => takeBuffered(incoming, Number(length)) ?? readArriving(c, incoming, ownerOf),
    )
  )
}

/** The body as UTF-8 text (a control-plane body). */
export function readBodyText(c: Context, ownerOf: OwnerOf): string | Promise<string> {
  const bytes = readBody(c, ownerOf)
  return bytes instanceof Promise ? bytes.then((b) => utf8.decode(b)) : utf8.decode(bytes)
}

/** The rest of a body still on its way, within the budget; a refusal is thrown as its answer. */
async function readArriving(c: Context, incoming: Incoming, ownerOf: OwnerOf): Promise<Buffer> {
  if (incoming.rawBody || incoming.readableEnded) return Buffer.from(await c.req.arrayBuffer())
  const body = await readBounded(
    incoming,
    MAX_BODY_BYTES,
    Number(incoming.headers['content-length']),
    () => ownerOf(c),
  )
  if (typeof body === 'string') throw bodyRefused(c, body)
  incoming.rawBody = body
  return body
}

/** The whole body from the stream's buffer, if it is all there and nothing has read it. */
function takeBuffered(incoming: Incoming, length: number): Buffer | undefined {
  if (incoming.readableDidRead || incoming.readableLength !== length || incoming.rawBody)
    return undefined
  const chunk = incoming.read() as Buffer | null
  // Kept where @hono/node-server's readers look first, so any later read gets the same bytes.
  incoming.rawBody = chunk ?? Buffer.alloc(0)
  // Flowing, the stream ends as soon as the parser reaches the end of the message; left paused,
  // it never would, and @hono/node-server drains it after the answer with two timers each.
  incoming.resume()
  return incoming.rawBody
}
