// Identifier generation. With SEED set every id is drawn from a seeded generator, so the same
// calls against the same start state produce the same ids (useful for snapshots and replays).
// A store remembers how many times it was started (server.ts): each later start draws from the
// seed's next sequence (`seedForStart`), so a restarted sandbox never draws again what it drew
// before its restart.
// Ids that are unique keys start with the time they were made, in an alphabet that sorts like
// ASCII: inserts then land at the end of their index instead of on random pages, which made
// charge inserts ~4x cheaper (and kept them cheap in a store of millions of rows).
import { createHash, randomFillSync } from 'node:crypto'
import type { Micros } from './clock.js'

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'
// In ASCII order, so that fixed-width numbers written with them sort as the numbers do.
const SORTED62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SORTED36 = '0123456789abcdefghijklmnopqrstuvwxyz'

// Ids are built as bytes in a scratch buffer and read out as one string: adding characters to a
// string one by one made a string per character, which showed in allocation profiles.
const scratch = Buffer.alloc(64)

/** `n` written in `alphabet`, left-padded to `width` characters, at `scratch[at]`. */
function writeFixed(at: number, n: number, alphabet: string, width: number): void {
  let v = Math.max(0, Math.floor(n))
  for (let i = width - 1; i >= 0; i--) {
    scratch[at + i] = alphabet.charCodeAt(v % alphabet.length)
    v = Math.floor(v / alphabet.length)
  }
}

export interface Ids {
  /** A uniform float in [0, 1). */
  random(): number
  string(length: number, alphabet?: string): string
  /** Charge `transaction_id`: 32 characters [a-zA-Z0-9], a valid BCB txid (26-35). */
  txid(nowUs: Micros): string
  /** Transfer `transaction_id`: a BCB end-to-end id, `E` + ISPB + yyyyMMddHHmm (UTC) + 11 chars. */
  endToEndId(nowUs: Micros, ispb: string): string
  /** The id at the end of a charge's location URL: lower-case letters and digits. */
  locationId(nowUs: Micros, length: number): string
  /** Prefixed opaque id, e.g. `evt_...`. */
  prefixed(prefix: string): string
  /** `n` random bytes (secrets): seeded with SEED, cryptographic otherwise. */
  bytes(n: number): Buffer
}

/**
 * The seed of a store's `start`-th start (0: its first, as a fresh store). The first keeps the
 * seed itself, so a fresh store draws what it always drew.
 */
export const seedForStart = (seed: string, start: number): string =>
  start === 0 ? seed : `${seed}\u0000start:${start}`

/** sfc32: small, fast and good enough for test data; seeded from SHA-256 of the seed text. */
function seededRandom(seed: string): () => number {
  const h = createHash('sha256').update(seed).digest()
  let a = h.readUInt32LE(0),
    b = h.readUInt32LE(4),
    c = h.readUInt32LE(8),
    d = h.readUInt32LE(12)
  return () => {
    a |= 0
    b |= 0
    c |= 0
    d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

/**
 * Cryptographic randomness, drawn from a pooled buffer to keep the hot path cheap. A charge
 * draws ~60 numbers: refilling 4 KiB every 17 charges still showed in profiles, 64 KiB does not.
 */
function cryptoRandom(): () => number {
  const pool = new Uint32Array(16 * 1024)
  let at = pool.length
  return () => {
    if (at === pool.length) {
      randomFillSync(pool)
      at = 0
    }
    return pool[at++]! / 4294967296
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

export function createIds(seed?: string): Ids {
  const random = seed === undefined ? cryptoRandom() : seededRandom(seed)
  // End-to-end ids keep only 6 random characters after the time: with the clock frozen, one
  // minute's ids would share all else and, by the thousands, meet now and then (62^6). Within a
  // minute their time part never repeats nor goes back: a later id takes the next microsecond.
  let e2eMinute = -1
  let e2eLast = -1
  let e2eStamp = ''
  const writeRandom = (at: number, length: number, alphabet: string) => {
    for (let i = 0; i < length; i++)
      scratch[at + i] = alphabet.charCodeAt(Math.floor(random() * alphabet.length))
  }
  /** A fixed-width number, then random characters: the shape of every sortable id. */
  const sortable = (
    n: number,
    numberAlphabet: string,
    width: number,
    length: number,
    alphabet: string,
  ) => {
    writeFixed(0, n, numberAlphabet, width)
    writeRandom(width, length - width, alphabet)
    return scratch.toString('latin1', 0, length)
  }
  const string = (length: number, alphabet = ALNUM): string => {
    if (length > scratch.length)
      return string(scratch.length, alphabet) + string(length - scratch.length, alphabet)
    writeRandom(0, length, alphabet)
    return scratch.toString('latin1', 0, length)
  }
  return {
    random,
    string,
    txid: (nowUs) => sortable(nowUs, SORTED62, 10, 32, ALNUM),
    endToEndId(nowUs, ispb) {
      // The microseconds within the minute keep ids of one minute in order too.
      const minute = Math.floor(nowUs / 60_000_000)
      let within = nowUs - minute * 60_000_000
      if (minute === e2eMinute) {
        if (within <= e2eLast) within = e2eLast + 1
      } else {
        // The minute's stamp is written once: every transfer of the minute shares it.
        const d = new Date(minute * 60_000)
        e2eStamp =
          `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
          `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
      }
      e2eMinute = minute
      e2eLast = within
      return `E${ispb}${e2eStamp}${sortable(within, SORTED62, 5, 11, ALNUM)}`
    },
    locationId: (nowUs, length) => sortable(nowUs, SORTED36, 11, length, LOWER_ALNUM),
    prefixed: (prefix) => `${prefix}_${string(24)}`,
    bytes(n) {
      const out = Buffer.alloc(n)
      for (let i = 0; i < n; i++) out[i] = Math.floor(random() * 256)
      return out
    },
  }
}
