// What the journal keeps of a body: cut at MAX_BODY characters and before the first bracket
// deeper than MAX_DEPTH, whatever shortcut decides that a body is shallow.
import { describe, expect, it } from 'vitest'
import { keptBody, MAX_BODY, MAX_DEPTH } from '../../src/http/request-journal.js'

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n)

describe('keptBody', () => {
  it('keeps null, empty and flat bodies as they are', () => {
    expect(keptBody(null)).toBeNull()
    expect(keptBody('')).toBe('')
    expect(keptBody('{"amount":1000,"description":"bench"}')).toBe(
      '{"amount":1000,"description":"bench"}',
    )
  })

  it(`keeps ${MAX_DEPTH} levels and cuts the next one`, () => {
    expect(keptBody(nested(MAX_DEPTH))).toBe(nested(MAX_DEPTH))
    expect(keptBody(nested(MAX_DEPTH + 1))).toBe(`${'['.repeat(MAX_DEPTH)}...`)
    expect(keptBody(`{"a":${nested(MAX_DEPTH + 5)}}`)).toBe(`{"a":${'['.repeat(MAX_DEPTH - 1)}...`)
  })

  it('keeps many brackets side by side: count is not depth', () => {
    const wide = `[${Array.from({ length: 3 * MAX_DEPTH }, () => '{"a":[1]}').join(',')}]`
    expect(keptBody(wide)).toBe(wide)
  })

  it('does not count brackets inside strings, nor escaped quotes as their end', () => {
    const text = JSON.stringify({ s: '['.repeat(MAX_DEPTH * 2) + '\\"{{{' })
    expect(keptBody(text)).toBe(text)
  })

  it('cuts a long body first, then judges its depth', () => {
    const long = JSON.stringify({ d: 'x'.repeat(MAX_BODY) })
    expect(keptBody(long)).toBe(`${long.slice(0, MAX_BODY)}...`)
  })
})
