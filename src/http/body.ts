// Reads a request body once, the way FastAPI does: JSON when the content type is JSON or
// absent, raw text otherwise, and an empty body as no body at all.
import type { Context } from 'hono'
import { header } from './headers.js'
import type { RawBody } from './validation.js'

// FastAPI parses as JSON when the type is application/json or application/*+json.
const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i

export async function readRawBody(c: Context): Promise<RawBody> {
  const text = await c.req.text()
  if (text === '') return { kind: 'empty' }
  const type = header(c, 'content-type')
  if (type !== undefined && !JSON_TYPE.test(type)) return { kind: 'not-json', text }
  try {
    return { kind: 'json', value: JSON.parse(text) }
  } catch {
    return { kind: 'invalid-json', text }
  }
}
