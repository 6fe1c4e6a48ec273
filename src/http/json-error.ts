// Where and why Python's json module would reject a document: FastAPI's `json_invalid` error
// carries that position and message, so the `fastapi` style reproduces them. Only called on
// bodies that JSON.parse already refused, never on the hot path.

export interface JsonProblem {
  msg: string
  pos: number
}

const WS = /[ \t\n\r]*/y
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y
const CONSTANTS = ['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity']

class Fail {
  constructor(readonly problem: JsonProblem) {}
}

export function pythonJsonProblem(text: string): JsonProblem {
  let i = 0
  const fail = (msg: string, pos = i): never => {
    throw new Fail({ msg, pos })
  }
  const ws = () => {
    WS.lastIndex = i
    WS.exec(text)
    i = WS.lastIndex
  }
  const string = () => {
    const start = i++
    for (;;) {
      if (i >= text.length) fail('Unterminated string starting at', start)
      const ch = text.charCodeAt(i)
      if (ch === 0x22) return void i++
      if (ch < 0x20) fail('Invalid control character at')
      if (ch === 0x5c) {
        const esc = text[i + 1]
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\uXXXX escape', i + 1)
          i += 6
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2
        else fail('Invalid \\escape', i)
      } else i++
    }
  }
  const value = (): void => {
    const ch = text[i]
    if (ch === '"') return string()
    if (ch === '{') return object()
    if (ch === '[') return array()
    const constant = CONSTANTS.find((k) => text.startsWith(k, i))
    if (constant) return void (i += constant.length)
    NUMBER.lastIndex = i
    if (NUMBER.exec(text)) return void (i = NUMBER.lastIndex)
    fail('Expecting value')
  }
  const object = () => {
    i++
    ws()
    if (text[i] === '}') return void i++
    for (;;) {
      if (text[i] !== '"') fail('Expecting property name enclosed in double quotes')
      string()
      ws()
      if (text[i] !== ':') fail("Expecting ':' delimiter")
      i++
      ws()
      value()
      ws()
      if (text[i] === '}') return void i++
      if (text[i] !== ',') fail("Expecting ',' delimiter")
      const comma = i++
      ws()
      if (text[i] === '}') fail('Illegal trailing comma before end of object', comma)
    }
  }
  const array = () => {
    i++
    ws()
    if (text[i] === ']') return void i++
    for (;;) {
      value()
      ws()
      if (text[i] === ']') return void i++
      if (text[i] !== ',') fail("Expecting ',' delimiter")
      const comma = i++
      ws()
      if (text[i] === ']') fail('Illegal trailing comma before end of array', comma)
    }
  }
  try {
    ws()
    value()
    ws()
    if (i < text.length) fail('Extra data')
  } catch (e) {
    if (e instanceof Fail) return e.problem
    return { msg: 'Expecting value', pos: 0 }
  }
  // Python accepts NaN and Infinity, which JSON.parse does not: report the first as a value error.
  return { msg: 'Expecting value', pos: Math.max(0, text.search(/NaN|-?Infinity/)) }
}
