// The bounds the dashboard keeps per person (sessions, live streams), with small limits: each
// owner is bounded, the companies share a total, and nobody can take the admin's place or the
// place of a company holding fewer than it.
import { describe, expect, it } from 'vitest'
import {
  ADMIN_OWNER,
  companyOwner,
  createFairPool,
  type FairLimits,
} from '../../src/ui/fair-pool.js'

const A = companyOwner('a')
const B = companyOwner('b')
const C = companyOwner('c')

function pool(limits: Omit<FairLimits, 'whenFull'>, whenFull: FairLimits['whenFull']) {
  const p = createFairPool<string>({ ...limits, whenFull })
  let n = 0
  /** Adds an entry named after its owner and rank; answers what was evicted, or null. */
  const add = (owner: string) => {
    const key = `${owner}#${++n}`
    return p.add(key, owner, key)
  }
  return { p, add, keys: () => [...p.values()] }
}

describe('a fair pool that evicts (sessions)', () => {
  it("ends the owner's own oldest when the owner is full", () => {
    const { p, add } = pool({ perOwner: 2, total: 10 }, 'evict-own')
    add(A)
    add(A)
    expect(add(A)).toEqual([`${A}#1`])
    expect(p.countOf(A)).toBe(2)
  })

  it('keeps the companies within the total by taking from the one holding the most, never from the admin', () => {
    const { p, add, keys } = pool({ perOwner: 5, total: 6 }, 'evict-own')
    for (let i = 0; i < 3; i++) add(ADMIN_OWNER)
    for (let i = 0; i < 5; i++) add(A)
    add(B)
    // The total (6) is full: B's next takes A's oldest, C's first takes A's next oldest.
    expect(add(B)).toEqual([`${A}#4`])
    expect(add(C)).toEqual([`${A}#5`])
    expect(p.countOf(ADMIN_OWNER)).toBe(3)
    expect([p.countOf(A), p.countOf(B), p.countOf(C)]).toEqual([3, 2, 1])
    // Nobody holds two more than B: B's next ends B's own oldest, not A's.
    expect(add(B)).toEqual([`${B}#9`])
    expect(p.size).toBe(9)
    // The admin is outside the total, bounded by its own limit only.
    for (let i = 0; i < 5; i++) add(ADMIN_OWNER)
    expect(p.countOf(ADMIN_OWNER)).toBe(5)
    expect(keys().filter((k) => !k.startsWith(ADMIN_OWNER))).toHaveLength(6)
  })

  it('forgets an entry once, whether deleted or evicted', () => {
    const { p, add } = pool({ perOwner: 1, total: 10 }, 'evict-own')
    add(A)
    expect(p.delete(`${A}#1`)).toBe(`${A}#1`)
    expect(p.delete(`${A}#1`)).toBeUndefined()
    expect(p.size).toBe(0)
    expect(add(A)).toEqual([])
  })
})

describe('a fair pool that refuses (streams)', () => {
  it('refuses a newcomer whose owner is full, leaving everything as it was', () => {
    const { p, add } = pool({ perOwner: 2, total: 10 }, 'refuse')
    add(A)
    add(A)
    expect(add(A)).toBeNull()
    expect(p.countOf(A)).toBe(2)
  })

  it('takes a place from the owner holding two more, and refuses when the places are shared fairly', () => {
    const { p, add } = pool({ perOwner: 4, total: 4 }, 'refuse')
    for (let i = 0; i < 4; i++) add(A)
    expect(add(B)).toEqual([`${A}#1`])
    expect(add(B)).toEqual([`${A}#2`])
    // 2 and 2: neither can take the other's.
    expect(add(B)).toBeNull()
    expect(add(A)).toBeNull()
    expect([p.countOf(A), p.countOf(B)]).toEqual([2, 2])
    // The admin is never refused for the companies' total.
    expect(add(ADMIN_OWNER)).toEqual([])
  })
})
