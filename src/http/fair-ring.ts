// The journal's storage (request-journal.ts): records of text fields outside the JavaScript heap,
// in one preallocated buffer of blocks and typed arrays (as objects, the newest ten thousand
// requests died in V8's old generation: docs/decisions/2026-11-22-request-journal-ring.md). Each
// record has an owner: a company, the admin, or NOBODY (callers without credentials). When room
// is needed, the owner holding the most blocks gives way its oldest record, so an owner holding
// no more than an equal share never loses one to another; and NOBODY's records give way to any
// owner's, beyond a reserve of their own that no owner takes. So callers without credentials
// never evict a company's records (issue 43: 200 unauthenticated 64 KiB bodies emptied every
// company's journal), nor does one company evict another's share.
import { maxHeap } from './max-heap.js'

/** The owner of records of callers without credentials. */
export const NOBODY = ''
/**
 * Bytes of text a block holds; a record takes whole blocks, chained. A call's record is ~450-750
 * bytes (a company read, a charge): one block, written in place, and 8 MiB hold 10,922 of them.
 */
export const BLOCK = 768
const NULL = -1
const NONE = -1
// Where each of a slot's numbers lies among its STRIDE (below).
const FIRST = 0
const BYTES = 1
const OWNER = 2
const PREV = 3
const NEXT = 4
const OWN_PREV = 5
const OWN_NEXT = 6
const LENGTHS = 7

export interface FairRing {
  /** Stores a record of `owner`; returns its slot (valid until the record is evicted). */
  push(owner: string, fields: readonly (string | null)[]): number
  /** All the fields of a record, read in one go. */
  fields(slot: number): (string | null)[]
  /** Live slots, newest first: every owner's, or one owner's. */
  newestFirst(owner?: string): Generator<number>
  /** Forgets every record, or one owner's. */
  clear(owner?: string): void
}

export interface FairRingSize {
  /** Records and bytes of text the owners (all but NOBODY) hold together at most. */
  slots: number
  bytes: number
  /** NOBODY's own, beside those: records and bytes no owner takes. */
  reservedSlots: number
  reservedBytes: number
}

/** A ring of records of `fields` fields each. */
export function createFairRing(size: FairRingSize, fields: number): FairRing {
  const ownedCap = Math.floor(size.bytes / BLOCK)
  const reservedBlocks = Math.max(1, Math.floor(size.reservedBytes / BLOCK))
  const reservedSlots = Math.max(1, size.reservedSlots)
  const blocks = ownedCap + reservedBlocks
  const slots = size.slots + reservedSlots
  // One block more than `blocks`, outside the free ones: the spare a record is first written to.
  const buf = Buffer.allocUnsafeSlow((blocks + 1) * BLOCK)
  const nextBlock = new Int32Array(blocks + 1)
  // A slot's numbers side by side (one cache line for the journal's seven fields): where its text
  // starts and its size in bytes, its owner, its place in the list of every record and in its
  // owner's (both oldest to newest), and its fields' lengths in UTF-16 units (-1: null).
  const STRIDE = LENGTHS + fields
  const meta = new Int32Array(slots * STRIDE)
  const freeSlots = new Int32Array(slots)
  // Owners, by index (0 is NOBODY's, for good): at most one per live record, and NOBODY.
  const owners = slots + 1
  const key: string[] = new Array(owners).fill('')
  const index = new Map<string, number>()
  const oldest = new Int32Array(owners)
  const newest = new Int32Array(owners)
  const held = new Int32Array(owners)
  const heldSlots = new Int32Array(owners)
  const freeOwners: number[] = []
  const heaviest = maxHeap(owners, (o) => held[o]!)
  let scratch = Buffer.allocUnsafeSlow(64 * 1024)
  let freeBlock = NONE
  let spare = blocks
  let freeBlockCount = 0
  let freeSlotCount = 0
  let tail = NONE
  // Blocks and slots the owners other than NOBODY hold together.
  let ownedBlocks = 0
  let ownedSlots = 0

  function reset(): void {
    for (let b = 0; b < blocks; b++) nextBlock[b] = b + 1 < blocks ? b + 1 : NONE
    freeBlock = blocks > 0 ? 0 : NONE
    spare = blocks
    freeBlockCount = blocks
    for (let s = 0; s < slots; s++) freeSlots[s] = slots - 1 - s
    freeSlotCount = slots
    tail = NONE
    ownedBlocks = ownedSlots = 0
    index.clear()
    heaviest.clear()
    freeOwners.length = 0
    for (let o = owners - 1; o > 0; o--) freeOwners.push(o)
    index.set(NOBODY, 0)
    oldest[0] = newest[0] = NONE
    held[0] = heldSlots[0] = 0
  }
  reset()

  function evict(slot: number): void {
    const m = slot * STRIDE
    const o = meta[m + OWNER]!
    const p = meta[m + PREV]!
    const n = meta[m + NEXT]!
    if (p !== NONE) meta[p * STRIDE + NEXT] = n
    if (n === NONE) tail = p
    else meta[n * STRIDE + PREV] = p
    const op = meta[m + OWN_PREV]!
    const on = meta[m + OWN_NEXT]!
    if (op === NONE) oldest[o] = on
    else meta[op * STRIDE + OWN_NEXT] = on
    if (on === NONE) newest[o] = op
    else meta[on * STRIDE + OWN_PREV] = op
    // The record's chain goes back to the free blocks, whole.
    const count = Math.max(1, Math.ceil(meta[m + BYTES]! / BLOCK))
    let last = meta[m + FIRST]!
    for (let i = 1; i < count; i++) last = nextBlock[last]!
    nextBlock[last] = freeBlock
    freeBlock = meta[m + FIRST]!
    freeBlockCount += count
    freeSlots[freeSlotCount++] = slot
    held[o] = held[o]! - count
    heldSlots[o] = heldSlots[o]! - 1
    if (o === 0) return
    ownedBlocks -= count
    ownedSlots--
    if (heldSlots[o] === 0) {
      heaviest.remove(o)
      index.delete(key[o]!)
      freeOwners.push(o)
    } else heaviest.shrank(o)
  }

  /**
   * Evicts until a record of `count` blocks of `owner` fits. Owners keep NOBODY's reserve free of
   * theirs; within the rest the heaviest gives way, the one adding a record if it is among the
   * heaviest (so an owner holding no more than an equal share is never the one to give way);
   * whatever NOBODY holds beyond its reserve gives way to them first.
   */
  function makeRoom(owner: number, count: number): void {
    if (owner !== 0) {
      while (ownedBlocks + count > ownedCap || ownedSlots + 1 > size.slots) {
        const top = heaviest.top()!
        // An owner given way whole holds 0 blocks: never the heaviest then.
        evict(oldest[owner !== NONE && held[owner]! >= held[top]! ? owner : top]!)
      }
    }
    while (freeBlockCount < count || freeSlotCount === 0) evict(oldest[0]!)
  }

  function ownerIndex(owner: string): number {
    let o = index.get(owner)
    if (o === undefined) {
      o = freeOwners.pop()!
      index.set(owner, o)
      key[o] = owner
      oldest[o] = newest[o] = NONE
      held[o] = heldSlots[o] = 0
      heaviest.add(o)
    }
    return o
  }

  return {
    push(owner, values) {
      // One encoding per record: the fields joined, their lengths kept in UTF-16 units.
      let text = ''
      for (let i = 0; i < fields; i++) text += values[i] ?? ''
      // Most records fit one block: written straight into the spare block, before room is made
      // (its length is known once written); a longer one into the scratch buffer, then copied.
      let written = buf.write(text, spare * BLOCK, BLOCK, 'utf8')
      // Fewer bytes than a character may take left over: the whole text was written.
      const inSpare = written <= BLOCK - 4
      if (!inSpare) {
        if (scratch.length < text.length * 3) scratch = Buffer.allocUnsafeSlow(text.length * 3)
        written = scratch.write(text, 0, 'utf8')
      }
      const count = Math.max(1, Math.ceil(written / BLOCK))
      const owned = owner !== NOBODY
      if (count > (owned ? ownedCap : reservedBlocks))
        throw new RangeError(
          `a record of ${written} bytes cannot fit its owner's share of the ring`,
        )
      let o = index.get(owner) ?? NONE
      makeRoom(owner === NOBODY ? 0 : o, count)
      // An owner that gave way all it held is made again.
      if (o === NONE || heldSlots[o] === 0) o = ownerIndex(owner)
      const slot = freeSlots[--freeSlotCount]!
      const m = slot * STRIDE
      if (inSpare) {
        // The spare becomes the record's block, and a free block the spare.
        meta[m + FIRST] = spare
        spare = freeBlock
        freeBlock = nextBlock[spare]!
      } else {
        meta[m + FIRST] = freeBlock
        let block = freeBlock
        for (let i = 0; i < count; i++) {
          scratch.copy(buf, block * BLOCK, i * BLOCK, Math.min(written, (i + 1) * BLOCK))
          if (i < count - 1) block = nextBlock[block]!
        }
        freeBlock = nextBlock[block]!
      }
      freeBlockCount -= count
      meta[m + BYTES] = written
      for (let i = 0; i < fields; i++) {
        const v = values[i] ?? null
        meta[m + LENGTHS + i] = v === null ? NULL : v.length
      }
      meta[m + OWNER] = o
      meta[m + PREV] = tail
      meta[m + NEXT] = NONE
      if (tail !== NONE) meta[tail * STRIDE + NEXT] = slot
      tail = slot
      meta[m + OWN_PREV] = newest[o]!
      meta[m + OWN_NEXT] = NONE
      if (newest[o] === NONE) oldest[o] = slot
      else meta[newest[o]! * STRIDE + OWN_NEXT] = slot
      newest[o] = slot
      held[o] = held[o]! + count
      heldSlots[o] = heldSlots[o]! + 1
      if (o !== 0) {
        ownedBlocks += count
        ownedSlots++
        heaviest.grew(o)
      }
      return slot
    },
    fields(slot) {
      const m = slot * STRIDE
      const n = meta[m + BYTES]!
      if (scratch.length < n) scratch = Buffer.allocUnsafeSlow(n)
      for (let i = 0, block = meta[m + FIRST]!; i * BLOCK < n; i++, block = nextBlock[block]!)
        buf.copy(scratch, i * BLOCK, block * BLOCK, block * BLOCK + Math.min(BLOCK, n - i * BLOCK))
      const text = scratch.toString('utf8', 0, n)
      const out: (string | null)[] = []
      let from = 0
      for (let i = 0; i < fields; i++) {
        const length = meta[m + LENGTHS + i]!
        out.push(length === NULL ? null : text.slice(from, (from += length)))
      }
      return out
    },
    *newestFirst(owner) {
      if (owner === undefined) {
        for (let s = tail; s !== NONE; s = meta[s * STRIDE + PREV]!) yield s
        return
      }
      const o = index.get(owner)
      if (o !== undefined)
        for (let s = newest[o]!; s !== NONE; s = meta[s * STRIDE + OWN_PREV]!) yield s
    },
    clear(owner) {
      if (owner === undefined) return reset()
      const o = index.get(owner)
      while (o !== undefined && heldSlots[o]! > 0) evict(oldest[o]!)
    },
  }
}
