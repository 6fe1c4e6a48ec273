// The probe judges by shape what differs by nature, and turns an observed offset into a zone.
import { describe, expect, it } from 'vitest'
import { staticCode } from '../../src/probe/charges.js'
import { curlFor } from '../../src/probe/curl.js'
import { createScrubber } from '../../src/probe/redact.js'
import {
  idShape,
  locationShape,
  nameShape,
  textShape,
  timestampShape,
} from '../../src/probe/shape.js'
import { offsetText, zoneFor } from '../../src/probe/zones.js'
import { parseBrCode } from '../../src/pix/brcode.js'

const MARCH = Date.UTC(2026, 2, 1)

describe('shapes', () => {
  it('describe ids by length and alphabet', () => {
    expect(idShape('k3Jd9QmZ0aLx7VbN2cYt5WsR8eUo1PfG')).toBe('32 chars [0-9A-Za-z]')
    expect(idShape('3f2a9c1e-0b7d-4e5f-8a6b-1c2d3e4f5a6b')).toBe('36 chars [0-9a-z-]')
    expect(idShape('3f2a9c1e0b7d4e5f')).toBe('16 chars [0-9a-f]')
    expect(idShape(42)).toBe('not a string (number)')
  })

  it('show the fraction digits and zone of a timestamp', () => {
    expect(timestampShape('2026-03-01T12:30:45.123456Z')).toBe('dddd-dd-ddTdd:dd:dd.ddddddZ')
    expect(timestampShape('2026-03-01T12:30:45.123+00:00')).toBe('dddd-dd-ddTdd:dd:dd.ddd+dd:dd')
  })

  it('read a qr_code_name against the merchant name', () => {
    expect(nameShape('Loja Exemplo Ltda #42', 'Loja Exemplo Ltda')).toBe('<merchant name> #<n>')
    expect(nameShape('COB-000123', 'Loja')).toBe('COB-<n>')
  })

  it('keep the case and limit of BR Code text, and the path of a redirect', () => {
    expect(textShape('LOJA EXEMPLO', 25)).toBe('ASCII, UPPER CASE, <= 25 chars')
    expect(textShape('Sao Paulo', 15)).toBe('ASCII, Mixed Case, <= 15 chars')
    expect(
      locationShape('https://a.example/api/v1/user/company?x=1', 'https://a.example/api/v1'),
    ).toBe('<base URL>/user/company?x=1')
    expect(locationShape('/api/v1/user/company', 'https://a.example/api/v1')).toBe(
      '/api/v1/user/company',
    )
    // Behind a proxy, a redirect may name the internal host: a difference worth seeing.
    expect(
      locationShape('http://10.0.0.7:8000/api/v1/user/company?x=1', 'https://a.example/api/v1'),
    ).toBe('<other origin>/api/v1/user/company?x=1')
  })
})

describe('zones', () => {
  it('round an observed gap to a quarter hour', () => {
    expect(offsetText(-10800)).toBe('-03:00')
    expect(offsetText(-10799)).toBe('-03:00')
    expect(offsetText(19800)).toBe('+05:30')
  })

  it('keep the zone in force when it matches, else name a zone with that offset', () => {
    expect(zoneFor('-03:00', 'America/Sao_Paulo', MARCH)).toBe('America/Sao_Paulo')
    expect(zoneFor('+09:00', 'America/Sao_Paulo', MARCH)).toBe('Etc/GMT-9')
    expect(zoneFor('-05:00', 'America/Sao_Paulo', MARCH)).toBe('Etc/GMT+5')
    expect(zoneFor('+00:00', 'America/Sao_Paulo', MARCH)).toBe('UTC')
    expect(zoneFor('+05:30', 'America/Sao_Paulo', MARCH)).toMatch(/^Asia\//)
    expect(zoneFor('-6396:15', 'America/Sao_Paulo', MARCH)).toBeUndefined()
  })
})

describe('what the probe sends and shows', () => {
  it('builds a static BR Code that the sandbox accepts as a payload', () => {
    expect(parseBrCode(staticCode())).toMatchObject({
      key: 'pix-sandbox-probe@example.com',
      amount: 100,
    })
  })

  it('renders credentials as shell variables', () => {
    const curl = curlFor({
      method: 'POST',
      path: '/hub/transactions/in',
      auth: { kind: 'client' },
      contentType: 'application/json',
      body: `{"d":"it's"}`,
    })
    expect(curl).toBe(
      `curl -i -X POST "$PIX_BASE_URL/hub/transactions/in" -u "$PIX_CLIENT_ID:$PIX_CLIENT_SECRET" -H 'content-type: application/json' --data-raw '{"d":"it'\\''s"}'`,
    )
  })

  it('scrubs a secret however it is echoed', () => {
    const scrub = createScrubber(['p"ss w'])
    expect(scrub('a p"ss w b p\\"ss w c p%22ss%20w')).toBe('a [redacted] b [redacted] c [redacted]')
  })
})
