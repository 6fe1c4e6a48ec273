// Identifier generation. With SEED set every id is drawn from a seeded generator, so the same
// calls against the same start state produce the same ids (useful for snapshots and replays).
import { createHash, randomBytes } from 'node:crypto'
import type { Micros } from './clock.js'

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'

export interface Ids {
  /** A uniform float in [0, 1). */
  random(): number
  string(length: number, alphabet?: string): string
  /** Charge `transaction_id`: 32 characters [a-zA-Z0-9], a valid BCB txid (26-35). */
  txid(): string
  /** Transfer `transaction_id`: a BCB end-to-end id, `E` + ISPB + yyyyMMddHHmm (UTC) + 11 chars. */
  endToEndId(nowUs: Micros, ispb: string): string
  /** The id at the end of a charge's location URL. */
  locationId(length: number): string
  /** Prefixed opaque id, e.g. `evt_...`. */
  prefixed(prefix: string): string
}

/** sfc32: small, fast and good enough for test data; seeded from SHA-256 of the seed text. */
function seededRandom(seed: string): () => number {
  const h = createHash('sha256').update(seed).digest()
  let a = h.readUInt32LE(0), b = h.readUInt32LE(4), c = h.readUInt32LE(8), d = h.readUInt32LE(12)
  return () => {
    a |= 0; b |= 0; c |= 0; d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

/** Cryptographic randomness, drawn from a pooled buffer to keep the hot path cheap. */
function cryptoRandom(): () => number {
  let pool = new Uint32Array(1024)
  let at = pool.length
  return () => {
    if (at === pool.length) {
      pool = new Uint32Array(randomBytes(4096).buffer)
      at = 0
    }
    return pool[at++]! / 4294967296
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

export function createIds(seed?: string): Ids {
  const random = seed === undefined ? cryptoRandom() : seededRandom(seed)
  const string = (length: number, alphabet = ALNUM) => {
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)]
    return out
  }
  return {
    random,
    string,
    txid: () => string(32),
    endToEndId(nowUs, ispb) {
      const d = new Date(Math.floor(nowUs / 1000))
      const stamp =
        `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
        `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
      return `E${ispb}${stamp}${string(11)}`
    },
    locationId: (length) => string(length, LOWER_ALNUM),
    prefixed: (prefix) => `${prefix}_${string(24)}`,
  }
}
