// A ring of records made of text fields, kept outside the JavaScript heap: one preallocated
// buffer of UTF-8 bytes, and typed arrays for where each record lies. The request journal keeps
// the newest ten thousand requests; as objects they were promoted to the old generation and
// died there a few seconds later, which grew the heap by tens of megabytes under load and cost
// about a sixth of the CPU of a request in garbage collection. Here a record costs one
// `Buffer.write` and never becomes garbage; the oldest records make room for new ones.

const NULL = 0xffffffff

export interface TextRing {
  /** Stores a record; returns its slot (valid until the record is evicted). */
  push(fields: readonly (string | null)[]): number
  /** All the fields of a record, read in one go. */
  fields(slot: number): (string | null)[]
  /** Live slots, newest first. */
  newestFirst(): Generator<number>
  /** Forgets one record (it stays in place, but is never listed again). */
  drop(slot: number): void
  clear(): void
}

/** `slots` records at most, `bytes` of text at most; each record has `fields` fields. */
export function createTextRing(slots: number, bytes: number, fields: number): TextRing {
  const buf = Buffer.allocUnsafeSlow(bytes)
  const start = new Uint32Array(slots)
  const size = new Uint32Array(slots)
  const lengths = new Uint32Array(slots * fields)
  const dropped = new Uint8Array(slots)
  // Records are numbered; live ones are [head, next), and record n lives in slot n % slots.
  let head = 0
  let next = 0
  let writeAt = 0
  const slotOf = (n: number) => n % slots

  function makeRoom(needed: number): number {
    if (next - head === slots) head++
    let at = writeAt
    if (at + needed > bytes) {
      // Wrap: what lies past the write position is the oldest text, and goes first.
      while (head < next && start[slotOf(head)]! >= at) head++
      at = 0
    }
    while (head < next && start[slotOf(head)]! >= at && start[slotOf(head)]! < at + needed) head++
    return at
  }

  return {
    push(values) {
      // One write per record: the fields are joined, and their lengths kept in UTF-16 units.
      let text = ''
      for (let i = 0; i < fields; i++) text += values[i] ?? ''
      // UTF-8 takes at most three bytes per UTF-16 unit: a bound known before writing. One byte
      // more, so that every record starts before the next: an empty record written where the
      // oldest one starts would otherwise be taken for it.
      const needed = text.length * 3 + 1
      if (needed > bytes)
        throw new RangeError(`a record of up to ${needed} bytes cannot fit a ring of ${bytes}`)
      const at = makeRoom(needed)
      const slot = slotOf(next++)
      for (let i = 0; i < fields; i++) {
        const v = values[i] ?? null
        lengths[slot * fields + i] = v === null ? NULL : v.length
      }
      const written = buf.write(text, at, 'utf8')
      start[slot] = at
      size[slot] = written
      dropped[slot] = 0
      writeAt = at + written + 1
      return slot
    },
    fields(slot) {
      const text = buf.toString('utf8', start[slot]!, start[slot]! + size[slot]!)
      const out: (string | null)[] = []
      let from = 0
      for (let i = 0; i < fields; i++) {
        const n = lengths[slot * fields + i]!
        out.push(n === NULL ? null : text.slice(from, (from += n)))
      }
      return out
    },
    *newestFirst() {
      // Read `head` at every step: a record pushed while the caller iterates may evict.
      for (let n = next - 1; n >= head; n--) if (!dropped[slotOf(n)]) yield slotOf(n)
    },
    drop(slot) {
      dropped[slot] = 1
    },
    clear() {
      head = next
      writeAt = 0
    },
  }
}
