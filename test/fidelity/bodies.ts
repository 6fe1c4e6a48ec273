// Request bodies for the differential: JSON written by hand, so that number text, key order,
// duplicates and escapes are exactly what is sent; then some of them broken, nested, re-encoded.
import type { Rng } from './rng.js'

export interface BodyCase {
  kind: string
  bytes: Buffer
  tags: Set<string>
  /** A content type the body needs (its encoding), or undefined to let the request choose. */
  contentType?: string
}

/** Keys the sandbox accepts for their type (and the reference too: it checks no key). */
const VALID_KEYS: [string, string][] = [
  ['CPF', '52998224725'],
  ['CPF', '11144477735'],
  ['CNPJ', '11222333000181'],
  ['EMAIL', 'maria@example.com'],
  ['EMAIL', 'failed@pix.example'],
  ['EMAIL', 'pending@pix.example'],
  ['PHONE', '+5511987654321'],
  ['PHONE', '+14155552671'],
]
/** Keys the sandbox's own checks refuse (a listed deviation: the reference checks none). */
const INVALID_KEYS: [string, string][] = [
  ['CPF', '12345678900'],
  ['CPF', '529.982.247-25'],
  ['CNPJ', '11222333000180'],
  ['EMAIL', 'not-an-email'],
  ['PHONE', '5511987654321'],
  ['PHONE', '+55119876'],
  ['CPF', 'maria@example.com'],
  // A lone surrogate: the sandbox refuses the key, and its 422 cannot echo it (a 500, in the
  // fastapi style, as FastAPI's own validators would answer).
  ['EMAIL', '\ud800'],
  ['CPF', '1\udc00'],
]
const VALID_PAYLOAD =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

const str = (s: string) => JSON.stringify(s)

const AMOUNTS: [number, string][] = [
  [40, 'small'],
  [2, '666'],
  [2, '777'],
  [1, '0'],
  [1, '-5'],
  [1, '-0'],
  [1, '10.0'],
  [1, '100.00'],
  [1, '10.5'],
  [1, '1e2'],
  [1, '1E2'],
  [1, '1.5e-7'],
  [1, '-0.0'],
  [1, '1e20'],
  [1, '1e15'],
  [1, '9.223372036854776e18'],
  [1, '1e400'],
  [1, '-1e400'],
  [1, 'NaN'],
  [1, 'Infinity'],
  [1, '-Infinity'],
  [1, '9007199254740993'],
  [1, '100000000000000000000000000000'],
  [1, '999999999999'],
  [1, '1000000000000'],
  [1, 'digits4300'],
  [1, 'true'],
  [1, 'false'],
  [1, 'null'],
  [1, '[100]'],
  [1, '{"v":100}'],
  [1, '"100"'],
  [1, '" 1_000 "'],
  [1, '"10."'],
  [1, '"10.0"'],
  [1, '"1e3"'],
  [1, '"-0"'],
  [1, '"+5"'],
  [1, '"0x10"'],
  [1, '"\\u0663"'],
  [1, '"9223372036854775808"'],
  [1, '"1__0"'],
  [1, '"1_0"'],
  [1, '"00012"'],
  [1, '"1.5"'],
  [1, '""'],
  [1, '"\\u00a0100\\u00a0"'],
  [1, '"\\ufeff100"'],
  [1, '"\\u0085100"'],
]

function amountText(r: Rng, overBalance: boolean, tags?: Set<string>): string {
  // Ten digits: still above any balance with two of them deleted (mutated bodies).
  if (overBalance) return String(r.int(1_000_000_000, 9_000_000_000))
  const a = r.weighted(AMOUNTS)
  // Pydantic's lax int takes these; the contract (simple style) wants a JSON integer.
  if (/^(?:"|true|false)/.test(a)) tags?.add('lax-amount')
  if (a === 'small') return String(r.int(1, 3000))
  if (a === 'digits4300') return '9'.repeat(r.pick([4300, 4301, 5000]))
  return a
}

const DESCRIPTIONS: [number, () => string][] = [
  [6, () => str('Pedido 1234')],
  [1, () => 'null'],
  [1, () => str('x'.repeat(140))],
  [1, () => str('x'.repeat(141))],
  [1, () => str('😀'.repeat(140))],
  [1, () => str('😀'.repeat(141))],
  [1, () => '123'],
  [1, () => 'true'],
  [1, () => '[]'],
  [1, () => '{"a":1.0}'],
  [1, () => '"caf\\u00e9"'],
  [1, () => '"\\ud800"'],
  [1, () => '"\\udc00x"'],
  [1, () => '"a\\u0001b"'],
  [1, () => '"quote \\" and \\\\ and \\/"'],
  [1, () => str('São Paulo – ação')],
  [1, () => str('\u2028\u2029\u007f')],
  [1, () => '"tab\\there"'],
]

function fields(
  r: Rng,
  op: 'charge' | 'transfer',
  tags: Set<string>,
  overBalance: boolean,
): [string, string][] {
  const out: [string, string][] = []
  const maybe = (p: number) => r.chance(p)
  if (maybe(0.95)) out.push(['amount', amountText(r, overBalance, tags)])
  if (op === 'transfer') {
    let key = r.pick(VALID_KEYS)
    if (r.chance(0.06)) {
      key = r.pick(INVALID_KEYS)
      tags.add('invalid-key')
    }
    if (maybe(0.95))
      out.push([
        'pix_key',
        r.weighted<() => string>([
          [20, () => str(key[1])],
          [1, () => '12345'],
          [1, () => 'null'],
        ])(),
      ])
    if (maybe(0.95))
      out.push([
        'pix_type',
        r.weighted<() => string>([
          [20, () => str(key[0])],
          [1, () => str('cpf')],
          [1, () => str('PIX')],
          [1, () => '1'],
          [1, () => 'null'],
        ])(),
      ])
  } else if (maybe(0.15)) {
    out.push([
      'payload',
      r.weighted<() => string>([
        [2, () => str(VALID_PAYLOAD)],
        [1, () => 'null'],
        [1, () => '42'],
        [
          1,
          () => {
            tags.add('invalid-payload')
            return str('000201not-a-code')
          },
        ],
        [
          1,
          () => {
            tags.add('invalid-payload')
            return str(r.pick(['\ud800', '00020\udc00']))
          },
        ],
      ])(),
    ])
  }
  if (maybe(0.4)) out.push(['description', r.weighted(DESCRIPTIONS)()])
  if (maybe(0.05))
    out.push([
      r.pick(['extra', '__proto__', 'constructor', '1', '0', 'Amount', '']),
      r.pick(['1', '{}', '"x"', '1.0']),
    ])
  if (maybe(0.05) && out.length) out.push(r.pick(out)) // a duplicate key: the last value wins
  if (maybe(0.15)) r.shuffle(out)
  return out
}

const render = (entries: [string, string][], space = '') =>
  `{${entries.map(([k, v]) => `${str(k)}:${space}${v}`).join(`,${space}`)}}`

const INVALID_JSON = [
  '{"amount":1,}',
  '{"amount":100',
  '{"amount" 100}',
  "{'amount':100}",
  '{amount:100}',
  '{"amount":01}',
  '{"amount":.5}',
  '{"amount":1.}',
  '{"amount":-}',
  '{"amount":+1}',
  '{"amount":tru}',
  '{"amount":100} {}',
  '{"amount":100}x',
  '{"description":"\\x"}',
  '{"description":"open',
  '{"description":"a\tb"}',
  '{"description":"\\u12"}',
  '[1,]',
  '{,}',
  '{"a":1,,"b":2}',
  '/* c */ {"amount":1}',
  '{"amount":nan}',
  '{"amount":infinity}',
  '{"amount":-NaN}',
  '{"amount":Infinity1}',
  '\u00a0{"amount":1}',
  '{"amount":1}\u0000',
  '"',
  ']',
]

const NOT_OBJECTS = [
  '[]',
  '[1,2]',
  '"text"',
  '123',
  '1.5',
  'true',
  'null',
  'NaN',
  '-Infinity',
  '[{"amount":1.0}]',
  '""',
  '"\\ud83d\\ude00"',
  ' \n\t ',
  '{}',
]

function nested(r: Rng, tags: Set<string>): string {
  const depth = r.pick([2, 5, 20, 40, 2_000, 200_000, 300_000])
  if (depth > 500 && depth < 100_000) tags.add('depth-band')
  const open = r.pick(['[', '{"a":'])
  const close = open === '[' ? ']' : '}'
  const inner = open.repeat(depth) + r.pick(['1', '1.0', '"x"', '[]']) + close.repeat(depth)
  return r.bool() ? inner : `{"amount":${inner}}`
}

function utf16(text: string, be: boolean, bom: boolean): Buffer {
  const le = Buffer.from((bom ? '\ufeff' : '') + text, 'utf16le')
  return be ? le.swap16() : le
}

function utf32(text: string, be: boolean, bom: boolean): Buffer {
  const points = [...((bom ? '\ufeff' : '') + text)].map((c) => c.codePointAt(0)!)
  const out = Buffer.alloc(points.length * 4)
  points.forEach((p, i) => (be ? out.writeUInt32BE(p, i * 4) : out.writeUInt32LE(p, i * 4)))
  return out
}

/** A body for a charge or a transfer. `overBalance`: every amount is above any balance. */
export function bodies(r: Rng, op: 'charge' | 'transfer', overBalance: boolean): BodyCase {
  const tags = new Set<string>()
  const valid = () => {
    const t = new Set<string>()
    const entries = fields(r, op, t, overBalance)
    if (t.has('invalid-key')) {
      // A key the sandbox refuses must not leave the two balances apart: the reference would
      // take it and debit. Over any balance, both refuse without a debit.
      const again = fields(r, op, new Set(), true).filter(
        ([k]) => k !== 'pix_key' && k !== 'pix_type',
      )
      entries.splice(
        0,
        entries.length,
        ...again,
        ...entries.filter(([k]) => k === 'pix_key' || k === 'pix_type'),
      )
    }
    t.forEach((x) => tags.add(x))
    return render(entries, r.chance(0.1) ? ' ' : '')
  }
  const kind = r.weighted<string>([
    [60, 'object'],
    [6, 'mutated'],
    [6, 'invalid-json'],
    [4, 'not-object'],
    [3, 'nested'],
    [2, 'empty'],
    [2, 'latin1'],
    [1, 'bad-utf8'],
    [2, 'utf16'],
    [1, 'utf32'],
    [1, 'utf8-bom'],
    [1, 'huge'],
  ])
  switch (kind) {
    case 'object':
      return { kind, bytes: Buffer.from(valid()), tags }
    case 'mutated': {
      // A valid body with a character or two changed: JSON errors of every kind, at every place.
      // The change may break a key or a BR Code the sandbox checks (a listed deviation), so the
      // amount is above any balance and no balance can move on one side only.
      let text = render(fields(r, op, tags, true))
      tags.add('invalid-key').add('invalid-payload')
      for (let n = r.int(1, 2); n > 0; n--) {
        const at = r.int(0, text.length)
        const ch = r.pick([
          '{',
          '}',
          '[',
          ']',
          '"',
          ',',
          ':',
          ' ',
          '\\',
          '0',
          '1',
          '-',
          '.',
          'e',
          'x',
          'N',
          '\t',
          '\n',
          '\u0001',
          'é',
          '😀',
        ])
        text = r.weighted<() => string>([
          [1, () => text.slice(0, at) + ch + text.slice(at)],
          [1, () => text.slice(0, at) + text.slice(at + 1)],
          [1, () => text.slice(0, at) + ch + text.slice(at + 1)],
        ])()
      }
      return { kind, bytes: Buffer.from(text), tags }
    }
    case 'invalid-json':
      return { kind, bytes: Buffer.from(r.pick(INVALID_JSON)), tags }
    case 'not-object':
      return { kind, bytes: Buffer.from(r.pick(NOT_OBJECTS)), tags }
    case 'nested':
      return { kind, bytes: Buffer.from(nested(r, tags)), tags }
    case 'empty':
      return { kind, bytes: Buffer.alloc(0), tags }
    case 'latin1':
      return {
        kind,
        bytes: Buffer.from(
          `{"amount":${amountText(r, true)},"description":"caf\xe9"${op === 'transfer' ? ',"pix_key":"maria@example.com","pix_type":"EMAIL"' : ''}}`,
          'latin1',
        ),
        tags,
      }
    case 'bad-utf8':
      return {
        kind,
        bytes: Buffer.concat([
          Buffer.from('{"amount":5000000,"description":"'),
          Buffer.from(
            r.pick([
              [0xc0, 0xaf],
              [0xed, 0xa0, 0x80],
              [0xf4, 0x90, 0x80, 0x80],
              [0xe2, 0x82],
              [0xff],
            ]),
          ),
          Buffer.from('"}'),
        ]),
        tags,
      }
    case 'utf16':
      return { kind, bytes: utf16(valid(), r.bool(), r.bool()), tags }
    case 'utf32':
      return { kind, bytes: utf32(valid(), r.bool(), r.bool()), tags }
    case 'utf8-bom':
      return {
        kind,
        bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid())]),
        tags,
      }
    default:
      tags.add('over-1mib')
      return {
        kind,
        bytes: Buffer.from(`{"amount":5000000,"description":"${'x'.repeat(1024 * 1024 + 10)}"}`),
        tags,
      }
  }
}
