// Identifier generation. With SEED set every id is drawn from a seeded generator, so the same
// calls against the same start state produce the same ids (useful for snapshots and replays).
// A store remembers how many times it was started (server.ts): each later start draws from the
// seed's next sequence (`seedForStart`), so a restarted sandbox never draws again what it drew
// before its restart.
// Charge and transfer ids start with the time they were made, in an alphabet that sorts like
// ASCII, so they sort as they were made (when they were indexed, that kept inserts at the end of
// the index: ~4x cheaper than on random pages); they now carry their row's key instead (below).
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
  const base = alphabet.length
  let v = Math.max(0, Math.floor(n))
  let i = width - 1
  // A time in microseconds is beyond 32 bits: its low digits are split off by division (`%` on
  // such a number is a floating-point remainder, the slowest step: ~40% of an id), the rest
  // in integer arithmetic.
  for (; v > 0x7fffffff && i >= 0; i--) {
    const q = Math.floor(v / base)
    scratch[at + i] = alphabet.charCodeAt(v - q * base)
    v = q
  }
  for (; i >= 0; i--) {
    const q = (v / base) | 0
    scratch[at + i] = alphabet.charCodeAt(v - q * base)
    v = q
  }
}

export interface Ids {
  /** A uniform float in [0, 1). */
  random(): number
  string(length: number, alphabet?: string): string
  /** Charge `transaction_id`: 32 characters [a-zA-Z0-9], a valid BCB txid (26-35), carrying its seq's `code` (`codeInTxid`). */
  txid(nowUs: Micros, code: number): string
  /**
   * A BCB end-to-end id, `E` + ISPB + yyyyMMddHHmm (UTC) + 11 chars; a transfer's
   * (`transaction_id`) carries its seq's `code` (`codeInEndToEndId`). One without a code is kept
   * in order, and never repeated, among the ids of its `scope` (a company's payments).
   */
  endToEndId(nowUs: Micros, ispb: string, code?: number, scope?: string): string
  /** The id at the end of a charge's location URL: lower-case letters and digits, carrying the charge's seq's `code` (`codeInLocationId`). */
  locationId(nowUs: Micros, code: number, length: number): string
  /** Prefixed opaque id, e.g. `evt_...`. */
  prefixed(prefix: string): string
  /** `n` random bytes (secrets): seeded with SEED, cryptographic otherwise. */
  bytes(n: number): Buffer
}

// A charge's and a transfer's ids carry their row's `seq` after their time, so the store finds
// the row by its key instead of through an index of each id: two indexes fewer on every charge
// written, one on every transfer (docs/PERFORMANCE.md). What they carry is the seq's code, a
// keyed permutation of 32-bit numbers drawn by the store (src/store/keyed-rows.ts), so ids look
// as random as before and tell nothing of how many rows came before; bounded by it (2^32 rows).
interface SeqField {
  /** Where the code starts: after the id's time, written in `alphabet` too. */
  at: number
  width: number
  alphabet: string
}
const TXID_SEQ: SeqField = { at: 10, width: 6, alphabet: SORTED62 }
const LOCATION_SEQ: SeqField = { at: 11, width: 7, alphabet: SORTED36 }
// After `E`, the ISPB, the minute and 5 characters of time within it.
const END_TO_END_SEQ: SeqField = { at: 26, width: 6, alphabet: SORTED62 }

/** The seq field's number in `text`: -1 if a character is not of its alphabet. */
function readFixed(text: string, { at, width, alphabet }: SeqField): number {
  if (text.length < at + width) return -1
  let n = 0
  for (let i = at; i < at + width; i++) {
    const digit = alphabet.indexOf(text[i]!)
    if (digit < 0) return -1
    n = n * alphabet.length + digit
  }
  return n
}

const codeIn = (text: string, key: SeqField): number => {
  const n = readFixed(text, key)
  return n > 0xffffffff ? -1 : n
}
/** The code a charge id drawn by `txid` carries; any other text gives a number no row need hold, or -1. */
export const codeInTxid = (id: string): number => codeIn(id, TXID_SEQ)
/** The code a location id drawn by `locationId` carries; any other text gives a number no row need hold, or -1. */
export const codeInLocationId = (id: string): number => codeIn(id, LOCATION_SEQ)
/** The code an end-to-end id drawn with one carries; any other text gives a number no row need hold, or -1. */
export const codeInEndToEndId = (id: string): number => codeIn(id, END_TO_END_SEQ)

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
/** Scopes whose end-to-end ids are kept in order at once; beyond it the memory starts over. */
const MAX_SCOPES = 20_000

export function createIds(seed?: string): Ids {
  const random = seed === undefined ? cryptoRandom() : seededRandom(seed)
  // End-to-end ids drawn without a code keep only 6 random characters after the time: with the
  // clock frozen, one minute's ids would share all else and, by the thousands, meet now and then
  // (62^6). Within a minute and a scope (a company) their time part never repeats nor goes back:
  // a later id takes the next microsecond. Per scope, as a count of the ids drawn in between
  // would tell a tenant what others did; and one with a code (a transfer's) is unique by it, and
  // keeps the clock's time.
  const orders = new Map<string, { minute: number; last: number }>()
  let stampMinute = -1
  let stamp = ''
  const writeRandom = (at: number, length: number, alphabet: string) => {
    for (let i = 0; i < length; i++)
      scratch[at + i] = alphabet.charCodeAt(Math.floor(random() * alphabet.length))
  }
  /** The shape of a charge's ids: its time, its row's seq's code, then random characters. */
  const keyed = (nowUs: number, code: number, key: SeqField, length: number, alphabet: string) => {
    writeFixed(0, nowUs, key.alphabet, key.at)
    writeFixed(key.at, code, key.alphabet, key.width)
    const from = key.at + key.width
    writeRandom(from, length - from, alphabet)
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
    txid: (nowUs, code) => keyed(nowUs, code, TXID_SEQ, 32, ALNUM),
    endToEndId(nowUs, ispb, code, scope = '') {
      const minute = Math.floor(nowUs / 60_000_000)
      let within = nowUs - minute * 60_000_000
      if (minute !== stampMinute) {
        // The minute's stamp is written once: every id of the minute shares it.
        const d = new Date(minute * 60_000)
        stamp =
          `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
          `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
        stampMinute = minute
      }
      if (code === undefined) {
        // The microseconds within the minute keep ids of one minute in order too.
        let order = orders.get(scope)
        if (!order) {
          if (orders.size >= MAX_SCOPES) orders.clear()
          orders.set(scope, (order = { minute, last: -1 }))
        }
        if (minute === order.minute && within <= order.last) within = order.last + 1
        order.minute = minute
        order.last = within
      }
      writeFixed(0, within, SORTED62, 5)
      if (code === undefined) writeRandom(5, 6, ALNUM)
      else writeFixed(5, code, SORTED62, 6)
      return `E${ispb}${stamp}${scratch.toString('latin1', 0, 11)}`
    },
    locationId: (nowUs, code, length) => keyed(nowUs, code, LOCATION_SEQ, length, LOWER_ALNUM),
    prefixed: (prefix) => `${prefix}_${string(24)}`,
    bytes(n) {
      const out = Buffer.alloc(n)
      for (let i = 0; i < n; i++) out[i] = Math.floor(random() * 256)
      return out
    },
  }
}
