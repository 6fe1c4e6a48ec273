// A 422's list as Starlette's JSONResponse writes it: json.dumps(ensure_ascii=False,
// allow_nan=False, separators=(',', ':')) then UTF-8. The echoed `input` keeps what the client
// sent (integers exact, floats as Python's repr, keys in order). What Python cannot write (NaN,
// an infinity, a lone surrogate) makes FastAPI answer a plain-text 500: `Unwritable` says so.
import { PyFloat, PyInt } from './python-json.js'

export class Unwritable extends Error {}

/** Python's repr of a float: the shortest round-trip digits, exponent outside 1e-4 <= |x| < 1e16. */
export function floatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new Unwritable('Out of range float values are not JSON compliant')
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const [mantissa, e] = Math.abs(x).toExponential().split('e') as [string, string]
  const digits = mantissa.replace('.', '')
  const point = Number(e) + 1
  const sign = x < 0 ? '-' : ''
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
  }
  const exp = point - 1
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
  return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** A string UTF-8 cannot encode (Python's 'surrogates not allowed'). */
export const hasLoneSurrogate = (s: string): boolean => LONE_SURROGATE.test(s)

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g')
/** `s` with each lone surrogate replaced by U+FFFD, as TextEncoder writes it (ES2024's toWellFormed). */
export const toWellFormed = (s: string): string => s.replace(LONE_SURROGATES, '\ufffd')

function str(s: string): string {
  // JSON.stringify escapes what Python escapes with ensure_ascii=False, but writes a lone
  // surrogate as \uXXXX where Python fails to encode it.
  if (hasLoneSurrogate(s)) throw new Unwritable('surrogates not allowed')
  return JSON.stringify(s)
}

/** The JSON text of a value made of plain values (errors, their ctx) and Python values (input). */
export function pyDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  switch (typeof v) {
    case 'string':
      return str(v)
    case 'boolean':
      return v ? 'true' : 'false'
    case 'number':
      return Number.isInteger(v) ? String(v) : floatRepr(v)
  }
  if (v instanceof Unwritable) throw v
  if (v instanceof PyInt) return v.text
  if (v instanceof PyFloat) return floatRepr(v.value)
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(',')}]`
  const entries = v instanceof Map ? [...(v as Map<string, unknown>)] : Object.entries(v as object)
  return `{${entries
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${str(k)}:${pyDumps(x)}`)
    .join(',')}}`
}
