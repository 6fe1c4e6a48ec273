// A contract body read as FastAPI reads it (docs/CONTRACT.md#bodies): JSON only for a JSON
// content type (or none, with `strict_content_type: false`), decoded as Python's json.loads
// decodes bytes (UTF-8, or UTF-16/32 told from the first bytes), parsed as CPython parses it.
// The common body (UTF-8 JSON that JSON.parse reads) costs a type check, a byte check, the
// decode and JSON.parse, as before; the rest is read again the slow way only when needed.
import { AppError } from '../domain/errors.js'
import { mayBreakLimits, parsePython, toJs, type PyValue } from './python-json.js'
import { decodeJsonBytes, pyStrip } from './python-text.js'
import type { RawBody } from './validation.js'

/**
 * Whether FastAPI parses the body as JSON: email.message's reading of the header (the part
 * before `;`, stripped, lower-cased; anything but exactly one `/` is text/plain), then
 * `application/json` or `application/<anything>+json`. An empty header is no header.
 */
export function isJsonContentType(type: string | undefined, strict: boolean): boolean {
  if (type === 'application/json') return true
  if (!type) return !strict
  const semicolon = type.indexOf(';')
  const ctype = pyStrip(semicolon < 0 ? type : type.slice(0, semicolon)).toLowerCase()
  const slash = ctype.indexOf('/')
  if (slash < 0 || ctype.indexOf('/', slash + 1) >= 0) return false
  const sub = ctype.slice(slash + 1)
  return ctype.slice(0, slash) === 'application' && (sub === 'json' || sub.endsWith('+json'))
}

/** 400 `There was an error parsing the body`: what FastAPI answers when the bytes cannot be read. */
const unreadable = () => new AppError('body_unreadable')

/** The body as FastAPI holds it after reading: parsed JSON, a JSON error, or the raw bytes. */
export function readFastApiBody(
  bytes: Buffer,
  contentType: string | undefined,
  strict: boolean,
): RawBody {
  if (bytes.length === 0) return { kind: 'empty' }
  if (!isJsonContentType(contentType, strict)) return { kind: 'not-json', bytes }
  const text = decodeJsonBytes(bytes)
  if (text === undefined) throw unreadable()
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return slow(text)
  }
  if (mayBreakLimits(text)) {
    const parsed = parsePython(text)
    if ('limit' in parsed) throw unreadable()
  }
  let exact: PyValue | undefined
  return {
    kind: 'json',
    value,
    text,
    exact: () => (exact ??= (parsePython(text) as { value: PyValue }).value),
  }
}

/** A body JSON.parse refused: Python may still read it (NaN, Infinity), or say where it fails. */
function slow(text: string): RawBody {
  const parsed = parsePython(text)
  if ('limit' in parsed) throw unreadable()
  if ('problem' in parsed) return { kind: 'invalid-json', problem: parsed.problem, text }
  return { kind: 'json', value: toJs(parsed.value), text, exact: () => parsed.value }
}
