// A keyed permutation of 32-bit numbers: the Speck32/64 block cipher (Beaulieu et al., "The
// SIMON and SPECK Families of Lightweight Block Ciphers", 2013: 16-bit words, a 64-bit key, 22
// rounds), checked against the paper's test vector (test/store/id-keys.test.ts). A charge's and a
// transfer's ids carry their row's key through it (docs/decisions/2026-11-27-ids-keyed-per-store.md):
// without the store's secret, an id's key field says nothing of how many rows came before it.
// No package offers a 32-bit block cipher; AES through node:crypto cost a call into C++ per id,
// this ~0.1 µs.

const ROUNDS = 22
const MASK = 0xffff
const ror = (x: number, r: number) => ((x >>> r) | (x << (16 - r))) & MASK
const rol = (x: number, r: number) => ((x << r) | (x >>> (16 - r))) & MASK

export interface Permutation {
  /** The number `n` (0 to 2^32 - 1) stands for. */
  encode(n: number): number
  /** The number `encode` took to give `code`. */
  decode(code: number): number
}

/** Speck32/64 under `key` (8 bytes, read as the paper's words l2, l1, l0, k0, big-endian). */
export function speck32(key: Uint8Array): Permutation {
  if (key.length < 8) throw new RangeError('Speck32/64 takes a key of 8 bytes')
  const word = (i: number) => (key[i]! << 8) | key[i + 1]!
  const k = new Uint16Array(ROUNDS)
  const l = [word(4), word(2), word(0)]
  k[0] = word(6)
  for (let i = 0; i < ROUNDS - 1; i++) {
    const next = ((k[i]! + ror(l[i]!, 7)) & MASK) ^ i
    l.push(next)
    k[i + 1] = rol(k[i]!, 2) ^ next
  }
  return {
    encode(n) {
      let x = (n >>> 16) & MASK
      let y = n & MASK
      for (let i = 0; i < ROUNDS; i++) {
        x = ((ror(x, 7) + y) & MASK) ^ k[i]!
        y = rol(y, 2) ^ x
      }
      return ((x << 16) | y) >>> 0
    },
    decode(code) {
      let x = (code >>> 16) & MASK
      let y = code & MASK
      for (let i = ROUNDS - 1; i >= 0; i--) {
        y = ror(y ^ x, 2)
        x = rol(((x ^ k[i]!) - y) & MASK, 7)
      }
      return ((x << 16) | y) >>> 0
    },
  }
}
