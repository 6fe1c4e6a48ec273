// The BR Code (EMV MPM "Pix copia e cola"): building the dynamic code of a charge and checking
// codes that clients send.
//
// Why not a library: @brazilian-utils/brazilian-utils and pix-utils, the well-kept PIX
// libraries, both refuse or drop the amount (field 54) of a dynamic code, which the contract
// requires, and brazilian-utils also refuses a location with a port (`localhost:8080/...`), which
// a local sandbox needs. So the fields are written here, the checksum too (below), and name
// folding comes from brazilian-utils. The tests decode our codes with pix-utils and
// brazilian-utils, independent of this file, and check the checksum against the `crc` package.
// Per-function entry points: the package root loads all of it (cities, banks...), ~18 MB.
import { removeAccents } from '@brazilian-utils/brazilian-utils/remove-accents'
import { formatAmount, parseAmount } from '../domain/money.js'
import { field, parseTlv } from './tlv.js'

const GUI = 'br.gov.bcb.pix'
const CRC_TAG = '6304'

// CRC-16/CCITT-FALSE (poly 0x1021, initial 0xFFFF), a byte at a time from a table. Every charge
// checksums its code: reading the code's characters directly, rather than a Buffer of its UTF-8
// bytes through the `crc` package, takes ~40% less time. A code is ASCII, unless a client's own
// BR Code holds other characters: those are checksummed over their UTF-8 bytes, as the BCB says.
const CRC_TABLE = (() => {
  const table = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i << 8
    for (let bit = 0; bit < 8; bit++)
      c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff
    table[i] = c
  }
  return table
})()
const HEX = '0123456789ABCDEF'
const step = (crc: number, byte: number) =>
  ((crc << 8) ^ CRC_TABLE[((crc >> 8) ^ byte) & 0xff]!) & 0xffff

/**
 * The CRC register after `s[from..]` (its UTF-8 bytes), starting from `crc`, the register after
 * `s[..from]`; -1 when that part is not ASCII, whose bytes are then the caller's to checksum.
 */
function crcOfAscii(s: string, from: number, crc: number): number {
  for (let i = from; i < s.length; i++) {
    const ch = s.charCodeAt(i)
    if (ch >= 0x80) return -1
    crc = step(crc, ch)
  }
  return crc
}

const hex = (crc: number) =>
  HEX[crc >> 12]! + HEX[(crc >> 8) & 15]! + HEX[(crc >> 4) & 15]! + HEX[crc & 15]!

/** The CRC of `s` (its UTF-8 bytes) as four upper-case hex digits, as field 63 holds it. */
export function crc16(s: string): string {
  let crc = crcOfAscii(s, 0, 0xffff)
  if (crc < 0) {
    crc = 0xffff
    for (const byte of Buffer.from(s, 'utf8')) crc = step(crc, byte)
  }
  return hex(crc)
}

// The part of a dynamic code before its location's id is the same for every charge of a server:
// its register is kept, and each code checksums the rest only (~45% of a charge's CRC).
let lastHead = ''
let lastHeadCrc = 0xffff

/** Folds text to printable ASCII (accents dropped) and cuts it to `max` characters. */
export function asciiField(text: string, max: number, fallback: string): string {
  // Looked up by the three as they are: a key joining them made a string per call, three a charge.
  let byFallback = folds.get(max)
  if (byFallback === undefined) folds.set(max, (byFallback = new Map()))
  let seen = byFallback.get(fallback)
  if (seen === undefined) byFallback.set(fallback, (seen = new Map()))
  let folded = seen.get(text)
  if (folded === undefined) {
    folded =
      removeAccents(text)
        .replace(/[^\x20-\x7E]/g, '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, max)
        .trim() || fallback
    if (seen.size >= FOLDS_LIMIT) seen.clear()
    seen.set(text, folded)
  }
  return folded
}

// Every charge folds its company's name and city, the same few texts again and again.
const folds = new Map<number, Map<string, Map<string, string>>>()
const FOLDS_LIMIT = 1000

export interface DynamicCode {
  /** Location without scheme, e.g. `localhost:8080/pix/qr/v2/abc`. */
  location: string
  amount: number
  merchantName: string
  merchantCity: string
}

// The fields every dynamic code shares, written once.
const HEAD = field('00', '01') + field('01', '12')
const GUI_FIELD = field('00', GUI)
const CURRENCY = field('52', '0000') + field('53', '986')
const COUNTRY = field('58', 'BR')
const TAIL = field('62', field('05', '***')) + CRC_TAG
// Where the location starts in a dynamic code: after HEAD, field 26's tag and length, the GUI,
// and field 25's tag and length.
const LOCATION_AT = HEAD.length + 4 + GUI_FIELD.length + 4

export function buildDynamicCode(c: DynamicCode): string {
  const body =
    HEAD +
    field('26', GUI_FIELD + field('25', c.location)) +
    CURRENCY +
    field('54', formatAmount(c.amount)) +
    COUNTRY +
    field('59', asciiField(c.merchantName, 25, 'PIX SANDBOX')) +
    field('60', asciiField(c.merchantCity, 15, 'SAO PAULO')) +
    TAIL
  // The head ends where the location's id starts: after the location's last `/`.
  const headLength = LOCATION_AT + c.location.lastIndexOf('/') + 1
  const head = body.slice(0, headLength)
  if (head !== lastHead) {
    const crc = crcOfAscii(head, 0, 0xffff)
    if (crc < 0) return body + crc16(body)
    lastHead = head
    lastHeadCrc = crc
  }
  const crc = crcOfAscii(body, headLength, lastHeadCrc)
  return body + (crc < 0 ? crc16(body) : hex(crc))
}

export interface ParsedCode {
  key?: string
  location?: string
  /** Field 54 in cents, when present. */
  amount?: number
  merchantName: string
  merchantCity: string
}

const within = (v: string | undefined, min: number, max: number) =>
  v !== undefined && v.length >= min && v.length <= max

/** Checks a BR Code as docs/CONTRACT.md#body-rules defines "valid"; returns its fields, or null when it is not valid. */
export function parseBrCode(code: string): ParsedCode | null {
  if (code.length < 8 || code.length > 512) return null
  if (code.slice(-8, -4) !== CRC_TAG || code.slice(-4) !== crc16(code.slice(0, -4))) return null
  const top = parseTlv(code)
  if (!top) return null
  const { fields, order } = top
  if (order[0] !== '00' || fields.get('00') !== '01' || order[order.length - 1] !== '63')
    return null
  const poi = fields.get('01')
  if (poi !== undefined && poi !== '11' && poi !== '12') return null
  if (!/^\d{4}$/.test(fields.get('52') ?? '') || fields.get('53') !== '986') return null
  if (
    fields.get('58') !== 'BR' ||
    !within(fields.get('59'), 1, 25) ||
    !within(fields.get('60'), 1, 15)
  )
    return null
  const extra = parseTlv(fields.get('62') ?? '')
  if (!fields.has('62') || !extra || !within(extra.fields.get('05'), 1, 25)) return null
  const account = pixAccount(order, fields)
  if (!account) return null
  const rawAmount = fields.get('54')
  let amount: number | undefined
  if (rawAmount !== undefined) {
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(rawAmount)) return null
    amount = parseAmount(rawAmount)
  }
  return { ...account, amount, merchantName: fields.get('59')!, merchantCity: fields.get('60')! }
}

/** The 26..51 template carrying the PIX GUI, with exactly one of a key or a scheme-less location. */
function pixAccount(
  order: string[],
  fields: Map<string, string>,
): { key?: string; location?: string } | null {
  for (const id of order) {
    const n = Number(id)
    if (n < 26 || n > 51) continue
    const sub = parseTlv(fields.get(id)!)
    if (!sub || sub.fields.get('00')?.toLowerCase() !== GUI) continue
    const key = sub.fields.get('01')
    const location = sub.fields.get('25')
    if ((key === undefined) === (location === undefined)) return null
    if (key !== undefined) return within(key, 1, 77) ? { key } : null
    if (!within(location, 1, 77) || /^[a-z][a-z0-9+.-]*:\/\//i.test(location!)) return null
    return { location }
  }
  return null
}
