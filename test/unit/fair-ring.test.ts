// The journal's storage: records of text outside the heap, each with an owner. What a reader of
// the journal would notice if it went wrong: a lost, garbled or resurrected entry, or one
// caller's entries evicting another's share (callers without credentials, NOBODY, evicting none).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BLOCK, createFairRing, NOBODY } from '../../src/http/fair-ring.js'
import { createRequestJournal, MAX_BODY } from '../../src/http/request-journal.js'

type Ring = ReturnType<typeof createFairRing>
const ringOf = (slots: number, bytes = 64 * 1024, reserved = { slots: 2, bytes: 1024 }) =>
  createFairRing({ slots, bytes, reservedSlots: reserved.slots, reservedBytes: reserved.bytes }, 2)
const all = (ring: Ring, owner?: string) =>
  [...ring.newestFirst(owner)].map((s) => ring.fields(s).slice(0, 2))
const firsts = (ring: Ring, owner?: string) => all(ring, owner).map(([a]) => a)

describe('fair ring', () => {
  it('keeps null apart from empty text, and multi-byte text intact, across blocks', () => {
    const ring = ringOf(4)
    const long = 'ção ✓ 🇧🇷 '.repeat(200)
    ring.push('a', ['', null])
    ring.push('a', ['São Paulo ✓ 🇧🇷', 'x'])
    ring.push('b', [long, long])
    expect(all(ring)).toEqual([
      [long, long],
      ['São Paulo ✓ 🇧🇷', 'x'],
      ['', null],
    ])
    expect(all(ring, 'a')).toEqual([
      ['São Paulo ✓ 🇧🇷', 'x'],
      ['', null],
    ])
  })

  it("forgets an owner's oldest record when its owner alone fills the slots", () => {
    const ring = ringOf(3)
    for (const n of ['1', '2', '3', '4', '5']) ring.push('a', [n, null])
    expect(firsts(ring)).toEqual(['5', '4', '3'])
  })

  it('forgets the oldest records of the one holding the most when the text does not fit', () => {
    // 4 blocks: a record of a block and a half takes 2.
    const ring = ringOf(100, 4 * BLOCK)
    ring.push('small', ['s1', null])
    for (let i = 0; i < 5; i++) ring.push('big', [String(i).repeat(BLOCK * 1.5), null])
    expect(firsts(ring, 'small')).toEqual(['s1'])
    expect(firsts(ring, 'big').map((t) => t![0])).toEqual(['4'])
  })

  it("never lets NOBODY's records evict an owner's, and keeps NOBODY's newest within its reserve", () => {
    const ring = ringOf(10)
    for (let i = 0; i < 10; i++) ring.push('co', [`c${i}`, null])
    for (let i = 0; i < 500; i++) ring.push(NOBODY, [`n${i}`, 'x'.repeat(i % 50)])
    expect(firsts(ring, 'co')).toEqual(Array.from({ length: 10 }, (_, i) => `c${9 - i}`))
    expect(firsts(ring, NOBODY)).toEqual(['n499', 'n498'])
    // NOBODY may use room the owners leave free, and gives it back to them first.
    const roomy = ringOf(10)
    for (let i = 0; i < 8; i++) roomy.push(NOBODY, [`n${i}`, null])
    expect(firsts(roomy, NOBODY)).toHaveLength(8)
    for (let i = 0; i < 10; i++) roomy.push('co', [`c${i}`, null])
    expect(firsts(roomy, 'co')).toHaveLength(10)
    expect(firsts(roomy, NOBODY)).toEqual(['n7', 'n6'])
  })

  it('never evicts an owner holding no more than an equal share, whoever adds records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ owner: fc.constantFrom('a', 'b', 'c', NOBODY), size: fc.nat(600) }), {
          maxLength: 200,
        }),
        (pushes) => {
          const slots = 12
          const ring = ringOf(slots, slots * BLOCK, { slots: 3, bytes: 3 * BLOCK })
          const owners = new Set(pushes.filter((p) => p.owner !== NOBODY).map((p) => p.owner))
          const pushed = new Map<string, string[]>()
          pushes.forEach(({ owner, size }, i) => {
            // One block a record (at most 500 bytes), its text naming it.
            const text = `${i}:`.padEnd(Math.min(size, 500), '.')
            ring.push(owner, [text, null])
            pushed.set(owner, [...(pushed.get(owner) ?? []), text])
          })
          for (const owner of owners) {
            const mine = pushed.get(owner)!
            const kept = firsts(ring, owner)
            // Whatever is kept is the owner's newest, in order, intact.
            expect(kept).toEqual(mine.slice(-kept.length).reverse())
            // An owner that added no more than an equal share keeps all of it.
            if (mine.length <= Math.floor(slots / owners.size))
              expect(kept).toHaveLength(mine.length)
          }
          // The newest record of all is always kept.
          const last = pushes.length - 1
          if (last >= 0) expect(firsts(ring)[0]).toMatch(new RegExp(`^${last}:`))
        },
      ),
    )
  })

  it('keeps records of any size and text intact, each owner its newest in order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            owner: fc.constantFrom('a', 'b', NOBODY),
            // One to four bytes a character, up to three blocks.
            text: fc
              .tuple(fc.constantFrom('a', 'ç', '✓', '😀'), fc.nat(600), fc.string({ maxLength: 3 }))
              .map(([c, n, tail]) => c.repeat(n) + tail),
            other: fc.option(fc.string({ maxLength: 5 })),
            clear: fc.boolean(),
          }),
          { maxLength: 80 },
        ),
        (ops) => {
          const ring = ringOf(6, 8 * BLOCK, { slots: 2, bytes: 4 * BLOCK })
          const pushed = new Map<string, [string, string | null][]>()
          for (const { owner, text, other, clear } of ops) {
            if (clear && owner === 'b') {
              ring.clear('b')
              pushed.set('b', [])
              continue
            }
            ring.push(owner, [text, other])
            pushed.set(owner, [...(pushed.get(owner) ?? []), [text, other]])
          }
          for (const [owner, mine] of pushed) {
            const kept = all(ring, owner)
            expect(kept).toEqual(mine.slice(mine.length - kept.length).reverse())
          }
          expect(all(ring)).toHaveLength(
            [...pushed.keys()].reduce((n, o) => n + all(ring, o).length, 0),
          )
        },
      ),
    )
  })

  it("empties on clear, or forgets one owner's records only", () => {
    const ring = ringOf(4)
    ring.push('a', ['a1', null])
    ring.push('b', ['b1', null])
    ring.clear('a')
    expect(firsts(ring)).toEqual(['b1'])
    ring.clear()
    ring.push('a', ['a2', null])
    expect(firsts(ring)).toEqual(['a2'])
  })
})

describe('request journal storage', () => {
  const entry = (
    n: number,
    extra: Partial<Parameters<ReturnType<typeof createRequestJournal>['record']>[0]> = {},
  ) => ({
    at: n,
    method: 'POST',
    path: '/p',
    query: '',
    status: 200,
    durationMs: 1.5,
    companyId: 'co',
    rawHeaders: ['Content-Type', 'application/json', 'X-Dup', 'a', 'x-dup', 'b'],
    requestBody: `{"n":${n}}`,
    responseBody: null,
    ...extra,
  })

  it('keeps the newest LIMIT entries, with every field as recorded', () => {
    const journal = createRequestJournal([], 3)
    for (let n = 1; n <= 5; n++) journal.record(entry(n, { dropped: n === 5 }))
    const list = journal.list({}, 10)
    expect(list.map((e) => e.id)).toEqual([5, 4, 3])
    expect(list[1]!.dropped).toBe(false)
    expect(list[0]).toEqual({
      id: 5,
      at: 5,
      method: 'POST',
      path: '/p',
      query: '',
      status: 200,
      dropped: true,
      durationMs: 1.5,
      companyId: 'co',
      headers: { 'content-type': 'application/json', 'x-dup': 'a, b' },
      requestBody: '{"n":5}',
      responseBody: null,
    })
    expect(journal.count({ method: 'post', path: '/p', status: 200 }, 'co')).toBe(3)
  })

  it("cuts bodies over the limit, and a company's clear leaves the others", () => {
    const journal = createRequestJournal([])
    journal.record(entry(1, { requestBody: 'x'.repeat(MAX_BODY + 10), companyId: 'other' }))
    journal.record(entry(2))
    expect(journal.list({}, 10, 'other')[0]!.requestBody).toBe(`${'x'.repeat(MAX_BODY)}...`)
    journal.clear('co')
    expect(journal.list({}, 10).map((e) => e.companyId)).toEqual(['other'])
  })
})

describe('the journal, full', () => {
  const entry = (companyId: string | null, n: number, admin = false) => ({
    at: n,
    method: 'POST',
    path: '/api/v1/hub/transactions/in',
    query: '',
    status: companyId === null && !admin ? 401 : 200,
    durationMs: 1,
    companyId,
    admin,
    rawHeaders: ['Content-Type', 'application/json'],
    requestBody: `{"amount":${n}}`,
    responseBody: null,
  })

  it("keeps a company's entries through 10,050 calls of callers without credentials", () => {
    const journal = createRequestJournal([])
    for (let n = 0; n < 20; n++) journal.record(entry('co', n))
    journal.record(entry(null, -1, true))
    for (let n = 0; n < 10_050; n++) journal.record(entry(null, n))
    expect(journal.count({}, 'co')).toBe(20)
    expect(journal.list({ status: 200 }, 100).map((e) => e.companyId)).toEqual([
      null,
      ...Array(20).fill('co'),
    ])
    // The newest of theirs are kept too, for the admin to see.
    expect(journal.list({ status: 401 }, 1)[0]!.at).toBe(10_049)
  })

  it('gives each company its share: one calling without end evicts its own entries, not the others', () => {
    const journal = createRequestJournal([])
    for (let n = 0; n < 100; n++) journal.record(entry('quiet', n))
    for (let n = 0; n < 30_000; n++) journal.record(entry('busy', n))
    expect(journal.count({}, 'quiet')).toBe(100)
    expect(journal.count({}, 'busy')).toBe(10_000 - 100)
    expect(journal.list({}, 1, 'busy')[0]!.at).toBe(29_999)
  })
})
