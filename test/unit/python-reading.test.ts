// The pieces that read a request as FastAPI's Python stack reads it, each against what CPython
// and pydantic answered for the same input (taken from CPython 3.11 and pydantic 2.13; the
// trailing-comma wording is 3.13's). The differential (test/fidelity) compares them end to end.
import { describe, expect, it } from 'vitest'
import { b64decode, parseBasic } from '../../src/http/auth.js'
import { isJsonContentType } from '../../src/http/fastapi-body.js'
import { floatRepr, pyDumps } from '../../src/http/python-dumps.js'
import { parsePython, PyFloat, PyInt } from '../../src/http/python-json.js'
import { decodeJsonBytes } from '../../src/http/python-text.js'
import { pydanticInt } from '../../src/http/pydantic-int.js'
import { unquote } from '../../src/http/uvicorn/path.js'
import { ValidationErrorList } from '../../src/http/errors.js'
import { validateBody } from '../../src/http/validation.js'
import { z } from 'zod'

describe("json.loads' errors: message and position (in code points)", () => {
  it.each([
    ['{"amount": 100,', 'Expecting property name enclosed in double quotes', 15],
    ['{"a" 1}', "Expecting ':' delimiter", 5],
    ['{"a":1,,"b":2}', 'Expecting property name enclosed in double quotes', 7],
    ['[1 2]', "Expecting ',' delimiter", 3],
    ['{"a":"\\x"}', 'Invalid \\escape', 6],
    ['{"a":"\\u12zz"}', 'Invalid \\uXXXX escape', 7],
    ['"abc', 'Unterminated string starting at', 0],
    ['"\\', 'Unterminated string starting at', 0],
    ['"a\tb"', 'Invalid control character at', 2],
    ['{"a":1} x', 'Extra data', 8],
    ['{"a":01}', "Expecting ',' delimiter", 6],
    ['{"a":-}', 'Expecting value', 5],
    ['{"a":1.}', "Expecting ',' delimiter", 6],
    ['   ', 'Expecting value', 3],
    ['["😀", x]', 'Expecting value', 6],
    ['{"a":"😀\\q"}', 'Invalid \\escape', 7],
    ['{"a":NaN1}', "Expecting ',' delimiter", 8],
    ['{"a":1}\u0000', 'Extra data', 7],
    // CPython 3.13's wording (3.12 and earlier: "Expecting ...", after the comma).
    ['[1,]', 'Illegal trailing comma before end of array', 2],
    ['{"😀":1,}x', 'Illegal trailing comma before end of object', 6],
  ])('%j: %s at %i', (text, msg, pos) => {
    expect(parsePython(text)).toEqual({ problem: { msg, pos } })
  })

  it('reads NaN and the infinities, integers exactly, floats as floats, keys in order (the last value wins)', () => {
    const parsed = parsePython(
      '{"b":NaN,"1":-Infinity,"a":9007199254740993,"c":-0,"d":1e400,"b":100.0}',
    )
    expect('value' in parsed).toBe(true)
    const map = (parsed as { value: Map<string, unknown> }).value
    expect([...map.keys()]).toEqual(['b', '1', 'a', 'c', 'd'])
    expect(map.get('a')).toEqual(new PyInt('9007199254740993'))
    expect(map.get('c')).toEqual(new PyInt('0'))
    expect(map.get('b')).toEqual(new PyFloat(100))
    expect((map.get('d') as PyFloat).value).toBe(Infinity)
  })

  it('stops at its limits: 1,000 levels, 4,300 digits', () => {
    expect(parsePython('['.repeat(1000) + ']'.repeat(1000))).toHaveProperty('value')
    expect(parsePython('['.repeat(1001) + ']'.repeat(1001))).toEqual({ limit: 'depth' })
    expect(parsePython(`[${'9'.repeat(4300)}]`)).toHaveProperty('value')
    expect(parsePython(`[-${'9'.repeat(4301)}]`)).toEqual({ limit: 'digits' })
    expect(parsePython(`[${'9'.repeat(5000)}.5]`)).toHaveProperty('value')
  })
})

describe('json.dumps of an echo', () => {
  it.each([
    [100, '100.0'],
    [-0, '-0.0'],
    [1e20, '1e+20'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [1.2345678901234568e17, '1.2345678901234568e+17'],
    [0.0001, '0.0001'],
    [1e-5, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [1 / 3, '0.3333333333333333'],
    [9.223372036854776e18, '9.223372036854776e+18'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [-1.5e22, '-1.5e+22'],
    // biome-ignore lint/correctness/noPrecisionLoss: the literal Python reads, rounded as CPython rounds it
    [12345678901234567890, '1.2345678901234567e+19'],
  ])('repr(%d) is %s', (x, text) => {
    expect(floatRepr(x)).toBe(text)
  })

  it('writes what was sent, and refuses what Python cannot write', () => {
    const input = new Map<string, unknown>([
      ['z', new PyInt('123456789012345678901234567890')],
      ['a', [new PyFloat(10), 'é\u2028"\u0001']],
    ])
    expect(pyDumps({ input })).toBe(
      '{"input":{"z":123456789012345678901234567890,"a":[10.0,"é\u2028\\"\\u0001"]}}',
    )
    expect(() => pyDumps(new PyFloat(NaN))).toThrow('Out of range float values')
    expect(() => pyDumps('\ud800')).toThrow('surrogates not allowed')
    expect(pyDumps('\ud83d\ude00')).toBe('"😀"')
  })
})

describe("pydantic's lax int", () => {
  it.each([
    ['"10."', 'int_parsing'],
    ['"10.0"', 10n],
    ['"10.00"', 10n],
    ['" 1_000 "', 1000n],
    ['"1__000"', 'int_parsing'],
    ['"_1000"', 'int_parsing'],
    ['"+5"', 5n],
    ['"-0"', 0n],
    ['"0x10"', 'int_parsing'],
    ['"1e3"', 'int_parsing'],
    ['"00012"', 12n],
    ['"\\u0663"', 'int_parsing'],
    ['"\\u00a0100\\u0085"', 100n],
    ['"\\ufeff100"', 'int_parsing'],
    ['"1 0"', 'int_parsing'],
    ['""', 'int_parsing'],
    ['"\\ud800"', 'string_unicode'],
    ['"99999999999999999999999"', 99999999999999999999999n],
    [`"${'9'.repeat(4301)}"`, 'int_parsing_size'],
    ['1e20', 'int_parsing_size'],
    ['9.223372036854776e18', 'int_parsing_size'],
    ['1e15', 1000000000000000n],
    ['10.5', 'int_from_float'],
    ['1.5e-7', 'int_from_float'],
    ['NaN', 'finite_number'],
    ['-Infinity', 'finite_number'],
    ['true', 1n],
    ['false', 0n],
    ['null', 'int_type'],
    ['[1]', 'int_type'],
    ['100000000000000000000000000000', 100000000000000000000000000000n],
  ])('%s', (json, expected) => {
    const value = (parsePython(json) as { value: Parameters<typeof pydanticInt>[0] }).value
    expect(pydanticInt(value)).toEqual(
      typeof expected === 'bigint' ? { int: expected } : { error: expected },
    )
  })
})

describe("HTTPBasic's base64 (Python's b64decode, not validating)", () => {
  it.each([
    ['c2FuZGJveC1jbGllbnQ6c2FuZGJveC1zZWNyZXQ=XQ==', 'sandbox-client:sandbox-secret'],
    ['YQ==YQ==', 'a'],
    ['Y!Q==', 'a'],
    ['=YQ==', 'a'],
    ['YW=Jj', 'abc'],
    ['YWJj====', 'abc'],
    ['YW Jj', 'abc'],
    ['YWJjZA===', 'abcd'],
    ['Y=Q==', 'a'],
    ['YQ', null],
    ['YQ=', null],
    ['Y', null],
    ['YQé=', null],
  ])('%s', (token, decoded) => {
    expect(b64decode(token)?.toString('latin1') ?? null).toBe(decoded)
  })

  it('takes the token after the first space, stripped as Python strips, and wants ASCII', () => {
    const token = Buffer.from('sandbox-client:sandbox-secret').toString('base64')
    expect(parseBasic(`basic  ${token}\xa0`)).toEqual({
      clientId: 'sandbox-client',
      secret: 'sandbox-secret',
    })
    expect(parseBasic(`Basic\t${token}`)).toBeNull()
    expect(parseBasic(`Basic ${Buffer.from('cliént:x', 'latin1').toString('base64')}`)).toBeNull()
  })
})

describe('how the body and the path are read', () => {
  it.each([
    ['application/json', true],
    ['Application/Problem+JSON; charset=utf-8', true],
    [' application/json ', true],
    ['application/+json', true],
    ['application / json', false],
    ['application/json, text/plain', false],
    ['text/json', false],
    ['application/jsonx', false],
    ['', false],
  ])('content type %j is JSON: %s', (type, json) => {
    expect(isJsonContentType(type, true)).toBe(json)
  })

  it('no content type is JSON only without strict_content_type', () => {
    expect(isJsonContentType(undefined, true)).toBe(false)
    expect(isJsonContentType('', false)).toBe(true)
  })

  it('detects UTF-16 and UTF-32 as json.loads does, and refuses what it cannot decode', () => {
    const text = '{"a":"é😀"}'
    const le16 = Buffer.from(text, 'utf16le')
    expect(decodeJsonBytes(le16)).toBe(text)
    expect(
      decodeJsonBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le16).swap16()])),
    ).toBe(text)
    const be32 = Buffer.alloc([...text].length * 4)
    ;[...text].forEach((c, i) => be32.writeUInt32BE(c.codePointAt(0)!, i * 4))
    expect(decodeJsonBytes(be32)).toBe(text)
    expect(decodeJsonBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x31]))).toBe('1')
    expect(decodeJsonBytes(Buffer.from('"caf\xe9"', 'latin1'))).toBeUndefined()
    // 'surrogatepass': an encoded surrogate is a lone surrogate, not an error.
    expect(decodeJsonBytes(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toBe('"\ud800"')
  })

  it.each([
    ['/a%2Fb', '/a/b'],
    ['/a%2fb%', '/a/b%'],
    ['/%ZZ%41', '/%ZZA'],
    ['/%C3%A9', '/é'],
    ['/%E9', '/\ufffd'],
    ['/%ED%A0%80', '/\ufffd\ufffd\ufffd'],
    ['/a%2', '/a%2'],
  ])("unquote(%j) is Python's %j", (path, decoded) => {
    expect(unquote(path)).toBe(decoded)
  })
})

describe("pydantic's errors for a number's bounds, exclusive and inclusive", () => {
  // What pydantic 2.13 answers for Field(ge=1), lt=5, gt=0, le=9 sent 0, 5, 0, 10: a field added
  // to the contract with an inclusive minimum is refused in FastAPI's words, not the amount's.
  it('names each bound as pydantic does', () => {
    const schema = z.object({
      a: z.int().min(1),
      b: z.int().lt(5),
      c: z.int().positive(),
      d: z.int().max(9),
    })
    const body = { kind: 'json', value: { a: 0, b: 5, c: 0, d: 10 } } as const
    let thrown: unknown
    try {
      validateBody(schema, body, 'fastapi')
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(ValidationErrorList)
    // As JSON: the keys' order is part of the bytes FastAPI answers.
    expect(JSON.stringify((thrown as ValidationErrorList).errors)).toBe(
      JSON.stringify(
        [
          ['a', 'greater_than_equal', 'greater than or equal to 1', 0, { ge: 1 }],
          ['b', 'less_than', 'less than 5', 5, { lt: 5 }],
          ['c', 'greater_than', 'greater than 0', 0, { gt: 0 }],
          ['d', 'less_than_equal', 'less than or equal to 9', 10, { le: 9 }],
        ].map(([field, type, words, input, ctx]) => ({
          type,
          loc: ['body', field],
          msg: `Input should be ${words}`,
          input,
          ctx,
        })),
      ),
    )
  })
})
