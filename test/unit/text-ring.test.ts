// The journal's storage: a ring of text records outside the heap. What a reader of the journal
// would notice if it went wrong: a lost, garbled or resurrected entry.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRequestJournal, MAX_BODY } from '../../src/http/request-journal.js'
import { createTextRing } from '../../src/http/text-ring.js'

const all = (ring: ReturnType<typeof createTextRing>) =>
  [...ring.newestFirst()].map((s) => ring.fields(s).slice(0, 2))

describe('text ring', () => {
  it('keeps null apart from empty text, and multi-byte text intact', () => {
    const ring = createTextRing(4, 1024, 2)
    ring.push(['', null])
    ring.push(['São Paulo ✓ 🇧🇷', 'x'])
    expect(all(ring)).toEqual([
      ['São Paulo ✓ 🇧🇷', 'x'],
      ['', null],
    ])
  })

  it('forgets the oldest record when the slots are full', () => {
    const ring = createTextRing(3, 1024, 2)
    for (const n of ['1', '2', '3', '4', '5']) ring.push([n, null])
    expect(all(ring).map(([a]) => a)).toEqual(['5', '4', '3'])
  })

  it('forgets the oldest records when the text does not fit, across wraps', () => {
    const ring = createTextRing(100, 40, 2)
    for (let i = 0; i < 50; i++) ring.push([String(i).padStart(4, '0'), null])
    // Four ASCII characters take 5 bytes, but need room for 13 (3 per character, and 1) to be written.
    const kept = all(ring).map(([a]) => a)
    expect(kept[0]).toBe('0049')
    expect(kept.length).toBeGreaterThanOrEqual(2)
    expect(kept).toEqual(kept.map((_, i) => String(49 - i).padStart(4, '0')))
  })

  it('matches a model of "the newest records that fit", for any sequence of pushes and drops', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              text: fc.string({ maxLength: 12 }),
              other: fc.option(fc.string({ maxLength: 5 })),
            }),
            fc.nat(5),
          ),
          { maxLength: 120 },
        ),
        (ops) => {
          const ring = createTextRing(8, 100, 2)
          const model: { text: string; other: string | null; slot: number; dropped: boolean }[] = []
          for (const op of ops) {
            if (typeof op === 'number') {
              const live = model.filter((m) => !m.dropped)
              const victim = live[live.length - 1 - op]
              if (victim) (victim.dropped = true), ring.drop(victim.slot)
              continue
            }
            model.push({ ...op, slot: ring.push([op.text, op.other]), dropped: false })
          }
          const got = all(ring)
          // Whatever is listed is the newest records in order, intact, never a dropped one.
          const expected = model
            .filter((m) => !m.dropped)
            .reverse()
            .slice(0, got.length)
            .map((m) => [m.text, m.other])
          expect(got).toEqual(expected)
          // The newest record is always kept, and at least as many as surely fit.
          const newest = model[model.length - 1]
          if (newest && !newest.dropped) expect(got[0]).toEqual([newest.text, newest.other])
        },
      ),
    )
  })

  it('empties on clear', () => {
    const ring = createTextRing(4, 64, 1)
    ring.push(['a'])
    ring.clear()
    ring.push(['b'])
    expect(all(ring).map(([a]) => a)).toEqual(['b'])
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
