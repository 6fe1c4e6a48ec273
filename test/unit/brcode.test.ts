import { readFileSync } from 'node:fs'
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils'
import { crc16ccitt } from 'crc'
import { parsePix, hasError } from 'pix-utils'
import { describe, expect, it } from 'vitest'
import { buildDynamicCode, crc16, parseBrCode } from '../../src/pix/brcode.js'
import { field } from '../../src/pix/tlv.js'

const vectors = readFileSync(new URL('../fixtures/pix-vectors.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => {
    const [verdict, payload, source] = l.split('\t')
    return { verdict, payload: payload!, source }
  })

describe('BR Code check', () => {
  it('computes the CRC-16/CCITT-FALSE check value of "123456789"', () => {
    expect(crc16('123456789')).toBe('29B1')
  })

  it("gives the crc package's CRC of the UTF-8 bytes, for ASCII codes and codes with other characters", () => {
    const texts = [
      '',
      'A',
      vectors[0]!.payload,
      '5913São Paulo6009Brasília',
      'naïve 🚀 €',
      '\u0080',
      'abc\u00ff',
      '\ud83d',
    ]
    for (let i = 0; i < 200; i++)
      texts.push(
        Array.from({ length: i }, (_, k) => String.fromCharCode(32 + ((i * 31 + k * 7) % 95))).join(
          '',
        ),
      )
    for (const text of texts) {
      expect(crc16(text), JSON.stringify(text)).toBe(
        crc16ccitt(Buffer.from(text, 'utf8')).toString(16).toUpperCase().padStart(4, '0'),
      )
    }
  })

  it('has every vector of pix-vectors.txt', () => {
    expect(vectors.filter((v) => v.verdict === 'VALID')).toHaveLength(5)
    expect(vectors.filter((v) => v.verdict === 'INVALID')).toHaveLength(2)
  })

  it.each(vectors)('$verdict: $source', ({ verdict, payload }) => {
    expect(parseBrCode(payload) !== null).toBe(verdict === 'VALID')
  })

  it('reads the amount of field 54 in cents', () => {
    const withAmount = vectors.find((v) => v.source?.includes('amount 1.45'))!
    expect(parseBrCode(withAmount.payload)?.amount).toBe(145)
  })

  it.each([
    ['a lower-case CRC', (c: string) => c.slice(0, -4) + c.slice(-4).toLowerCase()],
    ['a missing field 62', (c: string) => resign(c.replace('62070503***', ''))],
    [
      'a merchant name over 25 characters',
      (c: string) => resign(c.replace('5913Fulano de Tal', '5926Fulano de Tal da Silva Xa')),
    ],
    ['field 00 not first', (c: string) => resign(c.slice(6, 14) + c.slice(0, 6) + c.slice(14, -4))],
    ['currency other than 986', (c: string) => resign(c.replace('5303986', '5303840'))],
    [
      'both a key and a location',
      (c: string) =>
        resign(
          c.replace(
            KEY_TEMPLATE,
            field(
              '26',
              field('00', 'br.gov.bcb.pix') +
                field('01', 'a@b.co') +
                field('25', 'pix.example.com/x'),
            ),
          ),
        ),
    ],
    [
      'a location with a scheme',
      (c: string) =>
        resign(
          c.replace(
            KEY_TEMPLATE,
            field('26', field('00', 'br.gov.bcb.pix') + field('25', 'https://pix.example.com/x')),
          ),
        ),
    ],
    ['trailing garbage after the CRC', (c: string) => c + 'X'],
  ])('refuses %s', (_name, mutate) => {
    const valid = vectors[0]!.payload
    expect(valid).toContain(KEY_TEMPLATE)
    expect(parseBrCode(valid)).not.toBeNull()
    expect(mutate(valid)).not.toBe(valid)
    expect(parseBrCode(mutate(valid))).toBeNull()
  })
})

const KEY_TEMPLATE = '26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000'

/** Recomputes the CRC of a code whose body was changed, so only the intended flaw remains. */
function resign(code: string): string {
  const body = code.slice(0, -4)
  return body + crc16(body)
}

describe('the dynamic code of a charge', () => {
  const code = buildDynamicCode({
    location: 'localhost:8080/pix/qr/v2/abcdefghijklmnopqrstuvwxy',
    amount: 123456,
    merchantName: 'Padaria São João & Filhos Comércio de Pães',
    merchantCity: 'São José dos Campos',
  })

  it("is printable ASCII with the dynamic code's fields in order", () => {
    expect(code).toMatch(/^[\x20-\x7E]+$/)
    expect(code.startsWith('000201' + '010212')).toBe(true)
    expect(code).toContain(
      '0014br.gov.bcb.pix2550localhost:8080/pix/qr/v2/abcdefghijklmnopqrstuvwxy',
    )
    expect(code).toContain('52040000' + '5303986' + '54071234.56' + '5802BR')
    expect(code).toContain('62070503***6304')
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)))
  })

  it("is checksummed whole, by the crc package, whichever server's locations come before it", () => {
    // The register after a location's head is kept between codes: codes of other hosts and
    // paths, in turn, each get the checksum of their own bytes.
    const locations = [
      'localhost:8080/pix/qr/v2/abcdefghijklmnopqrstuvwxy',
      'sandbox.example.com/pix/qr/v2/0000000000000000000000001',
      'localhost:8080/pix/qr/v2/zyxwvutsrqponmlkjihgfedcb',
      'localhost:9090/pix/qr/v2/abcdefghijklmnopqrstuvwxy',
      'localhost:8080/other/abc',
    ]
    for (const location of [...locations, ...locations.reverse()]) {
      const each = buildDynamicCode({ location, amount: 100, merchantName: 'M', merchantCity: 'C' })
      const body = each.slice(0, -4)
      expect(each.slice(-4), location).toBe(
        crc16ccitt(Buffer.from(body, 'utf8')).toString(16).toUpperCase().padStart(4, '0'),
      )
    }
  })

  it('folds the merchant name and city to ASCII within 25 and 15 characters', () => {
    const parsed = parseBrCode(code)!
    expect(parsed.merchantName).toBe('Padaria Sao Joao & Filhos')
    expect(parsed.merchantCity).toBe('Sao Jose dos Ca')
  })

  it('is accepted by our own check', () => {
    expect(parseBrCode(code)).toMatchObject({
      location: 'localhost:8080/pix/qr/v2/abcdefghijklmnopqrstuvwxy',
      amount: 123456,
    })
  })

  it('is decoded by pix-utils, an independent decoder', () => {
    const pix = parsePix(code)
    expect(hasError(pix)).toBe(false)
    expect(pix).toMatchObject({
      type: 'DYNAMIC',
      url: 'localhost:8080/pix/qr/v2/abcdefghijklmnopqrstuvwxy',
      merchantName: 'Padaria Sao Joao & Filhos',
    })
  })

  it('is decoded by brazilian-utils when the location has no port (it refuses ports)', () => {
    const real = buildDynamicCode({
      location: 'pix.example.com/pix/qr/v2/abc123',
      amount: 1000,
      merchantName: 'Loja',
      merchantCity: 'Recife',
    })
    expect(getPixPayloadInfo(real)).toMatchObject({
      url: 'pix.example.com/pix/qr/v2/abc123',
      pointOfInitiation: 'dynamic',
      merchantName: 'Loja',
    })
    expect(parseBrCode(real)?.amount).toBe(1000)
  })

  it('writes the largest amount in the 13 characters field 54 holds', () => {
    const big = buildDynamicCode({
      location: 'h.example/x',
      amount: 999_999_999_999,
      merchantName: 'A',
      merchantCity: 'B',
    })
    expect(big).toContain('54139999999999.99')
    expect(parseBrCode(big)?.amount).toBe(999_999_999_999)
  })
})
