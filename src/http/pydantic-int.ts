// Pydantic's lax `int` (what FastAPI's models apply to `amount` in the fastapi style), as
// pydantic-core 2 decides it: booleans, integers of any size, floats without a fraction below
// 2^63, and strings such as " 1_000 ", "+5", "0012" or "10.00" (not "10.", "1e3", "0x10").
import { MAX_INT_DIGITS, PyFloat, PyInt, type PyValue } from './python-json.js'
import { hasLoneSurrogate } from './python-dumps.js'

export type IntError =
  | 'int_type'
  | 'int_parsing'
  | 'int_parsing_size'
  | 'int_from_float'
  | 'finite_number'
  | 'string_unicode'

export const INT_ERRORS: Record<IntError, string> = {
  int_type: 'Input should be a valid integer',
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  finite_number: 'Input should be a finite number',
  string_unicode: 'Input should be a valid string, unable to parse raw data as a unicode string',
}

export type IntResult = { int: bigint } | { error: IntError }

const TWO_63 = 2 ** 63
const JSON_INT = /^-?(?:0|[1-9]\d*)$/
// Rust's str::trim: Unicode White_Space (U+0085 included, U+FEFF not).
const RUST_TRIM =
  /^[\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g

/** The integer pydantic makes of a JSON value, or the error it reports. */
export function pydanticInt(v: PyValue): IntResult {
  if (typeof v === 'boolean') return { int: v ? 1n : 0n }
  if (v instanceof PyInt) return { int: BigInt(v.text) }
  if (v instanceof PyFloat) return floatAsInt(v.value)
  if (typeof v === 'string') return strAsInt(v)
  return { error: 'int_type' }
}

function floatAsInt(x: number): IntResult {
  if (!Number.isFinite(x)) return { error: 'finite_number' }
  if (x % 1 !== 0) return { error: 'int_from_float' }
  return -TWO_63 < x && x < TWO_63 ? { int: BigInt(x) } : { error: 'int_parsing_size' }
}

/** pydantic-core's str_as_int: a JSON integer as it is, or after clean_int_str. */
export function strAsInt(s: string): IntResult {
  if (hasLoneSurrogate(s)) return { error: 'string_unicode' }
  // A run of digits longer than the limit is "out of range" before anything else is looked at.
  const run = /^-?[1-9]\d*/.exec(s)
  if (run && run[0].length > MAX_INT_DIGITS) return { error: 'int_parsing_size' }
  if (JSON_INT.test(s)) return { int: BigInt(s) }
  const cleaned = cleanIntStr(s)
  const ok = cleaned !== undefined && cleaned.length <= MAX_INT_DIGITS && JSON_INT.test(cleaned)
  return ok ? { int: BigInt(cleaned) } : { error: 'int_parsing' }
}

function cleanIntStr(input: string): string | undefined {
  let s = input.replace(RUST_TRIM, '')
  if (s.startsWith('+')) {
    if (s[1] === '-') return undefined
    s = s.slice(1)
  }
  let negative = false
  if (s.startsWith('-')) {
    if (s[1] === '-' || s[1] === '+') return undefined
    negative = true
    s = s.slice(1)
  }
  const stripped = stripLeadingZeros(s)
  if (stripped === undefined) return undefined
  s = stripped
  const dot = s.indexOf('.')
  if (dot >= 0 && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot)
  if (s.includes('_') && !s.startsWith('_') && !s.endsWith('_') && !s.includes('__'))
    return (negative ? '-' : '') + s.replaceAll('_', '')
  // Nothing was cleaned: the first reading already said no.
  if (s.length === input.length) return undefined
  return (negative ? '-' : '') + s
}

/** Leading zeros off, keeping one before a `.` or when nothing else is left; undefined: not a number. */
function stripLeadingZeros(s: string): string | undefined {
  const first = s[0]
  if (first === undefined) return undefined
  if (first !== '0') return (first >= '1' && first <= '9') || first === '-' ? s : undefined
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!
    if (c === '0' || c === '_') continue
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i)
    if (c === '.') return s.slice(i - 1)
    return undefined
  }
  return s.slice(-1)
}
