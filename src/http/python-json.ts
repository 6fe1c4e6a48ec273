// JSON read as CPython's `json` module reads it (what FastAPI parses a body with), for the cases
// JSON.parse cannot tell: integers of any size and floats kept apart (`100` vs `100.0`), keys in
// the order sent, `NaN`/`Infinity`, the recursion limit, the 4,300-digit limit of integers, and
// the message and position of each error (Python 3.13's wording). Only called off the hot path:
// when JSON.parse refused a body, when a 422 echoes one, or for a body long enough to hit a
// limit. Not a library: see docs/decisions/2026-11-25-answering-as-fastapi.md.

/** A JSON integer, exact: its decimal text (`-0` is `0`, as Python's int). */
export class PyInt {
  constructor(readonly text: string) {}
}

/** A JSON number with a fraction or an exponent: a Python float, NaN and infinities included. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** What Python's json.loads returns: dicts keep the first position of a key and its last value. */
export type PyValue = null | boolean | string | PyInt | PyFloat | PyValue[] | Map<string, PyValue>

export interface JsonProblem {
  msg: string
  /** In code points, as Python counts a string. */
  pos: number
}

/** Nesting deeper than this is Python's RecursionError (sys.getrecursionlimit()'s default). */
export const MAX_DEPTH = 1000
/** Longer integer literals are Python's ValueError (sys.get_int_max_str_digits()'s default). */
export const MAX_INT_DIGITS = 4300

/** The outcomes of a parse: a value, a JSONDecodeError (a 422), or a limit (a 400). */
export type PyParse = { value: PyValue } | { problem: JsonProblem } | { limit: 'depth' | 'digits' }

const WS = /[ \t\n\r]*/y
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y
const INT_DIGITS = /\d/g

class Stop {
  constructor(readonly outcome: PyParse) {}
}

/** Parses `text` as json.loads does. */
export function parsePython(text: string): PyParse {
  let i = 0
  let depth = 0
  const fail = (msg: string, at = i): never => {
    throw new Stop({ problem: { msg, pos: codePoints(text, at) } })
  }
  const ws = () => {
    WS.lastIndex = i
    WS.exec(text)
    i = WS.lastIndex
  }
  const string = (): string => {
    const start = i++
    for (;;) {
      if (i >= text.length) fail('Unterminated string starting at', start)
      const ch = text.charCodeAt(i)
      if (ch === 0x22) break
      if (ch < 0x20) fail('Invalid control character at')
      if (ch === 0x5c) {
        const esc = text[i + 1]
        if (esc === undefined) fail('Unterminated string starting at', start)
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            fail('Invalid \\uXXXX escape', i + 1)
          i += 6
        } else if ('"\\/bfnrt'.includes(esc!)) i += 2
        else fail('Invalid \\escape', i)
      } else i++
    }
    // Checked above, so JSON.parse reads the escapes exactly as Python does.
    return JSON.parse(text.slice(start, ++i)) as string
  }
  const number = (): PyValue | undefined => {
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text)
    if (!m) return undefined
    i = NUMBER.lastIndex
    if (m[1] !== undefined || m[2] !== undefined) return new PyFloat(Number(m[0]))
    if (m[0].length > MAX_INT_DIGITS && (m[0].match(INT_DIGITS)?.length ?? 0) > MAX_INT_DIGITS)
      throw new Stop({ limit: 'digits' })
    return new PyInt(m[0] === '-0' ? '0' : m[0])
  }
  const value = (): PyValue => {
    const ch = text[i]
    if (ch === '"') return string()
    if (ch === '{' || ch === '[') {
      if (++depth > MAX_DEPTH) throw new Stop({ limit: 'depth' })
      const v = ch === '{' ? object() : array()
      depth--
      return v
    }
    for (const [word, v] of CONSTANTS) {
      if (text.startsWith(word, i)) {
        i += word.length
        return v
      }
    }
    return number() ?? fail('Expecting value')
  }
  const object = (): Map<string, PyValue> => {
    const out = new Map<string, PyValue>()
    i++
    ws()
    if (text[i] === '}') return (i++, out)
    for (;;) {
      if (text[i] !== '"') fail('Expecting property name enclosed in double quotes')
      const key = string()
      ws()
      if (text[i] !== ':') fail("Expecting ':' delimiter")
      i++
      ws()
      out.set(key, value())
      ws()
      if (text[i] === '}') return (i++, out)
      if (text[i] !== ',') fail("Expecting ',' delimiter")
      const comma = i++
      ws()
      if (text[i] === '}') fail('Illegal trailing comma before end of object', comma)
    }
  }
  const array = (): PyValue[] => {
    const out: PyValue[] = []
    i++
    ws()
    if (text[i] === ']') return (i++, out)
    for (;;) {
      out.push(value())
      ws()
      if (text[i] === ']') return (i++, out)
      if (text[i] !== ',') fail("Expecting ',' delimiter")
      const comma = i++
      ws()
      if (text[i] === ']') fail('Illegal trailing comma before end of array', comma)
    }
  }
  try {
    ws()
    const v = value()
    ws()
    if (i < text.length) fail('Extra data')
    return { value: v }
  } catch (e) {
    if (e instanceof Stop) return e.outcome
    throw e
  }
}

const CONSTANTS: [string, PyValue][] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', new PyFloat(NaN)],
  ['Infinity', new PyFloat(Infinity)],
  ['-Infinity', new PyFloat(-Infinity)],
]

/** Python's index of the JavaScript index `at`: astral characters count one there. */
function codePoints(text: string, at: number): number {
  let n = at
  for (let k = 0; k < at - 1; k++) {
    const c = text.charCodeAt(k)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(k + 1)
      if (d >= 0xdc00 && d <= 0xdfff) n--, k++
    }
  }
  return n
}

/** The plain JavaScript value (what JSON.parse would give, NaN and infinities included). */
export function toJs(v: PyValue): unknown {
  if (v instanceof PyInt) return Number(v.text)
  if (v instanceof PyFloat) return v.value
  if (Array.isArray(v)) return v.map(toJs)
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, toJs(x)]))
  return v
}

/**
 * Whether a body JSON.parse read can still break one of Python's limits (a long enough text
 * only: each level of nesting takes a character, each digit one): then it is parsed again.
 */
export const mayBreakLimits = (text: string): boolean =>
  text.length > MAX_DEPTH * 2 || (text.length > MAX_INT_DIGITS && /\d{4301}/.test(text))
