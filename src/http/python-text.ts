// Bytes to text as Python does it for a body: json.loads(bytes) tells UTF-8, UTF-16 and UTF-32
// from the first bytes (json.detect_encoding) and decodes with 'surrogatepass'; FastAPI echoes
// a body it did not parse with bytes.decode() (strict UTF-8, a BOM kept). Undefined: Python
// would raise UnicodeDecodeError.

// Python's str.strip() over a header value (latin-1): ASCII white space, \x1c-\x1f, \x85, \xa0.
const PY_STRIP = /^[\t-\r\x1c-\x20\x85\xa0]+|[\t-\r\x1c-\x20\x85\xa0]+$/g
export const pyStrip = (s: string): string => s.replace(PY_STRIP, '')

const utf8 = new TextDecoder('utf-8', { fatal: true })
const utf8KeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** json.detect_encoding. */
function detectEncoding(b: Buffer): string {
  const [b0, b1, b2, b3] = b
  if (
    (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) ||
    (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0)
  )
    return 'utf-32'
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0xff && b1 === 0xfe)) return 'utf-16'
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8-sig'
  if (b.length >= 4) {
    if (!b0) return b1 ? 'utf-16-be' : 'utf-32-be'
    if (!b1) return b2 || b3 ? 'utf-16-le' : 'utf-32-le'
  } else if (b.length === 2) {
    if (!b0) return 'utf-16-be'
    if (!b1) return 'utf-16-le'
  }
  return 'utf-8'
}

/** The text json.loads reads from these bytes, or undefined where it raises UnicodeDecodeError. */
export function decodeJsonBytes(b: Buffer): string | undefined {
  const encoding = detectEncoding(b)
  switch (encoding) {
    case 'utf-8':
    case 'utf-8-sig':
      // TextDecoder drops a leading BOM, which utf-8-sig does and plain utf-8 never meets here.
      try {
        return utf8.decode(b)
      } catch {
        return utf8SurrogatePass(b, encoding === 'utf-8-sig' ? 3 : 0)
      }
    case 'utf-16':
      return utf16(b.subarray(2), b[0] === 0xfe)
    case 'utf-16-be':
    case 'utf-16-le':
      return utf16(b, encoding === 'utf-16-be')
    case 'utf-32':
      return utf32(b.subarray(4), b[0] === 0)
    default:
      return utf32(b, encoding === 'utf-32-be')
  }
}

/** bytes.decode(): strict UTF-8, a leading BOM kept as U+FEFF. */
export function decodeUtf8Strict(b: Buffer): string | undefined {
  try {
    return utf8KeepBom.decode(b)
  } catch {
    return undefined
  }
}

function utf16(b: Buffer, bigEndian: boolean): string | undefined {
  if (b.length % 2) return undefined
  const units = new Uint16Array(b.length / 2)
  for (let i = 0; i < units.length; i++)
    units[i] = bigEndian ? b.readUInt16BE(i * 2) : b.readUInt16LE(i * 2)
  return fromUnits(units)
}

function utf32(b: Buffer, bigEndian: boolean): string | undefined {
  if (b.length % 4) return undefined
  let out = ''
  for (let i = 0; i < b.length; i += 4) {
    const p = bigEndian ? b.readUInt32BE(i) : b.readUInt32LE(i)
    if (p > 0x10ffff) return undefined
    out += String.fromCodePoint(p)
  }
  return out
}

function fromUnits(units: Uint16Array): string {
  let out = ''
  for (let i = 0; i < units.length; i += 8192)
    out += String.fromCharCode(...units.subarray(i, i + 8192))
  return out
}

/**
 * UTF-8 with 'surrogatepass': the encoded surrogates (ED A0..BF xx) TextDecoder refuses are
 * taken as lone surrogates; anything else invalid is still an error.
 */
function utf8SurrogatePass(b: Buffer, start: number): string | undefined {
  const units: number[] = []
  let i = start
  while (i < b.length) {
    const c = b[i]!
    if (c < 0x80) units.push(c), i++
    else {
      const n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : -1
      if (n < 0 || c > 0xf4 || i + n >= b.length) return undefined
      let p = c & (0x3f >> n)
      for (let k = 1; k <= n; k++) {
        const d = b[i + k]!
        if ((d & 0xc0) !== 0x80) return undefined
        p = (p << 6) | (d & 0x3f)
      }
      if ((n === 2 && p < 0x800) || (n === 3 && (p < 0x10000 || p > 0x10ffff))) return undefined
      if (p >= 0x10000) units.push(0xd800 + ((p - 0x10000) >> 10), 0xdc00 + ((p - 0x10000) & 0x3ff))
      else units.push(p)
      i += n + 1
    }
  }
  return fromUnits(Uint16Array.from(units))
}
