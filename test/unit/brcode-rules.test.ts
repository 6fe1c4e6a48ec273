// Each rule of the BR Code check (docs/CONTRACT.md#body-rules's "valid") on its own: a code built field by field
// with a correct CRC, so the one field changed is the only reason for the verdict, and the
// boundaries each rule draws (lengths, digits, the account template's range).
import { describe, expect, it } from 'vitest'
import { asciiField, buildDynamicCode, crc16, parseBrCode } from '../../src/pix/brcode.js'
import { field } from '../../src/pix/tlv.js'

type Fields = [id: string, value: string][]
const pixTemplate = (inner: string) => field('00', 'br.gov.bcb.pix') + inner
const BASE: Fields = [
  ['00', '01'],
  ['01', '12'],
  ['26', pixTemplate(field('01', 'maria@example.com'))],
  ['52', '0000'],
  ['53', '986'],
  ['54', '10.50'],
  ['58', 'BR'],
  ['59', 'Loja Exemplo'],
  ['60', 'Sao Paulo'],
  ['62', field('05', '***')],
]

/** The code of `fields` plus its CRC field (a correct one). */
function code(fields: Fields): string {
  const body = fields.map(([id, value]) => field(id, value)).join('') + '6304'
  return body + crc16(body)
}
/** BASE with one field replaced (or dropped, when `value` is undefined), in place. */
function withField(id: string, value: string | undefined): Fields {
  const i = BASE.findIndex(([f]) => f === id)
  const out = [...BASE]
  if (value === undefined) out.splice(i, 1)
  else if (i >= 0) out[i] = [id, value]
  else out.push([id, value])
  return out
}

describe('the BR Code check, rule by rule', () => {
  it('accepts the base code, with its key, amount, name and city', () => {
    expect(parseBrCode(code(BASE))).toEqual({
      key: 'maria@example.com',
      amount: 1050,
      merchantName: 'Loja Exemplo',
      merchantCity: 'Sao Paulo',
    })
  })

  it('accepts a code of exactly 512 characters and refuses one of 513', () => {
    // Free fields 80-89 carry the padding, as one field holds at most 99 characters.
    const padded = (n: number) => {
      const free: Fields = Array.from({ length: 10 }, (_, i) => [String(80 + i), ''])
      let left = n - code([...BASE, ...free]).length
      for (const f of free) {
        f[1] = 'x'.repeat(Math.min(99, left))
        left -= f[1].length
      }
      return code([...BASE, ...free])
    }
    expect(padded(512)).toHaveLength(512)
    expect(parseBrCode(padded(512))).not.toBeNull()
    expect(padded(513)).toHaveLength(513)
    expect(parseBrCode(padded(513))).toBeNull()
  })

  it('refuses a CRC field that is not 63 of length 04, even with a matching checksum', () => {
    const body = BASE.map(([id, value]) => field(id, value)).join('') + '6305X'
    expect(parseBrCode(body + crc16(body))).toBeNull()
  })

  it('refuses a code whose last field is not the CRC field', () => {
    // Field 99 swallows the last ten characters, "6304" and the checksum among them.
    const body = BASE.map(([id, value]) => field(id, value)).join('') + '9910ab6304'
    expect(parseBrCode(body + crc16(body))).toBeNull()
  })

  it.each([
    ['a payload format other than 01', withField('00', '02')],
    ['a point of initiation other than 11 or 12', withField('01', '13')],
    ['a merchant category code of three digits', withField('52', '000')],
    ['a merchant category code of five digits', withField('52', '00000')],
    ['a merchant category code with a letter before its digits', withField('52', 'X000')],
    ['a country other than BR', withField('58', 'US')],
    ['no merchant name', withField('59', undefined)],
    ['an empty merchant name', withField('59', '')],
    ['no merchant city', withField('60', undefined)],
    ['a merchant city of 16 characters', withField('60', 'Sao Jose do Rio ')],
    ['an amount with three decimals', withField('54', '10.505')],
    ['an amount with a point and no decimals', withField('54', '10.')],
    ['an amount with a sign', withField('54', '-10.50')],
    ['an amount followed by a letter', withField('54', '10.50x')],
    ['an amount of eleven digits', withField('54', '12345678901')],
    [
      'the account template outside fields 26 to 51',
      [
        ...withField('26', undefined),
        ['80', pixTemplate(field('01', 'maria@example.com'))],
      ] as Fields,
    ],
    [
      'an account template in field 25',
      [
        ...withField('26', undefined),
        ['25', pixTemplate(field('01', 'maria@example.com'))],
      ] as Fields,
    ],
    [
      'no template with the PIX GUI',
      withField('26', field('00', 'com.example.other') + field('01', 'maria@example.com')),
    ],
  ])('refuses %s', (_name, fields) => {
    expect(parseBrCode(code(fields))).toBeNull()
  })

  it.each([
    ['no point of initiation', withField('01', undefined), {}],
    ['point of initiation 11 (static)', withField('01', '11'), {}],
    [
      'a merchant name of 25 characters',
      withField('59', 'N'.repeat(25)),
      { merchantName: 'N'.repeat(25) },
    ],
    [
      'a merchant city of 15 characters',
      withField('60', 'C'.repeat(15)),
      { merchantCity: 'C'.repeat(15) },
    ],
    ['an amount without decimals', withField('54', '10'), { amount: 1000 }],
    ['an amount with one decimal', withField('54', '10.5'), { amount: 1050 }],
    ['an amount of ten digits', withField('54', '1234567890'), { amount: 123456789000 }],
    ['no amount', withField('54', undefined), { amount: undefined }],
    [
      'the account template in field 51',
      [
        ...withField('26', undefined),
        ['51', pixTemplate(field('01', 'maria@example.com'))],
      ] as Fields,
      { key: 'maria@example.com' },
    ],
    [
      'the GUI in capitals',
      withField('26', field('00', 'BR.GOV.BCB.PIX') + field('01', 'maria@example.com')),
      { key: 'maria@example.com' },
    ],
    [
      'a location with "://" after its start',
      withField('26', pixTemplate(field('25', 'pix.example.com/qr?next=http://x'))),
      { location: 'pix.example.com/qr?next=http://x' },
    ],
  ])('accepts %s', (_name, fields, expected) => {
    const parsed = parseBrCode(code(fields))
    expect(parsed).not.toBeNull()
    expect(parsed).toMatchObject(expected)
  })

  it('skips a template of another scheme and reads the PIX one after it', () => {
    const fields: Fields = [
      ...withField('26', field('00', 'com.example.other') + field('01', 'not-this-key')),
    ]
    fields.splice(3, 0, ['27', pixTemplate(field('01', 'maria@example.com'))])
    expect(parseBrCode(code(fields))?.key).toBe('maria@example.com')
  })
})

describe('folding a merchant name or city', () => {
  it('drops accents and what is not printable ASCII, collapses whitespace, trims, then cuts', () => {
    expect(asciiField('  Café\u2615  São\t\n João  ', 25, 'FALLBACK')).toBe('Cafe Sao Joao')
    expect(asciiField('Padaria São João & Filhos Comércio', 25, 'FALLBACK')).toBe(
      'Padaria Sao Joao & Filhos',
    )
    // Cut at 10 leaves a trailing space, which goes too.
    expect(asciiField('Loja Boa  Vista', 10, 'FALLBACK')).toBe('Loja Boa V')
    expect(asciiField('Loja Boa Vista', 9, 'FALLBACK')).toBe('Loja Boa')
  })

  it('falls back when nothing printable is left, and the dynamic code carries the fallbacks', () => {
    expect(asciiField('\u2615\u2615', 25, 'FALLBACK')).toBe('FALLBACK')
    const parsed = parseBrCode(
      buildDynamicCode({
        location: 'h.example/x',
        amount: 100,
        merchantName: '\u2615',
        merchantCity: '\u00a0\u2615',
      }),
    )
    expect(parsed).toMatchObject({ merchantName: 'PIX SANDBOX', merchantCity: 'SAO PAULO' })
  })
})
