// A binary max-heap of small integers (0 to capacity - 1) by a weight read when they are
// compared: the journal's ring (fair-ring.ts) finds its heaviest owner in O(1) and follows each
// owner's weight in O(log n), where a scan of up to ten thousand owners took a record each time.

export interface MaxHeap {
  /** The item of greatest weight; undefined when empty. */
  top(): number | undefined
  add(item: number): void
  remove(item: number): void
  /** After `item`'s weight grew. */
  grew(item: number): void
  /** After `item`'s weight shrank. */
  shrank(item: number): void
  clear(): void
}

export function maxHeap(capacity: number, weight: (item: number) => number): MaxHeap {
  const heap = new Int32Array(capacity)
  const at = new Int32Array(capacity).fill(-1)
  let size = 0

  const place = (i: number, item: number) => {
    heap[i] = item
    at[item] = i
  }
  function up(i: number): void {
    const item = heap[i]!
    const w = weight(item)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (weight(heap[parent]!) >= w) break
      place(i, heap[parent]!)
      i = parent
    }
    place(i, item)
  }
  function down(i: number): void {
    const item = heap[i]!
    const w = weight(item)
    for (;;) {
      let child = 2 * i + 1
      if (child >= size) break
      if (child + 1 < size && weight(heap[child + 1]!) > weight(heap[child]!)) child++
      if (weight(heap[child]!) <= w) break
      place(i, heap[child]!)
      i = child
    }
    place(i, item)
  }

  return {
    top: () => (size > 0 ? heap[0] : undefined),
    add(item) {
      place(size, item)
      up(size++)
    },
    remove(item) {
      const i = at[item]!
      if (i < 0) return
      at[item] = -1
      const last = heap[--size]!
      if (i === size) return
      place(i, last)
      up(i)
      down(at[last]!)
    },
    grew(item) {
      const i = at[item]!
      if (i >= 0) up(i)
    },
    shrank(item) {
      const i = at[item]!
      if (i >= 0) down(i)
    },
    clear() {
      for (let i = 0; i < size; i++) at[heap[i]!] = -1
      size = 0
    },
  }
}
