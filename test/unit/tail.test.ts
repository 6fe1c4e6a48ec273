// The last lines exec keeps of COMMAND's output (src/cli/tail.ts), shown when COMMAND fails
// before its first call: each stream's lines whole even when their chunks interleave, bounded
// whatever COMMAND prints, without colours or other terminal commands.
import { describe, expect, it } from 'vitest'
import { createTail, TAIL_LINES } from '../../src/cli/tail.js'

describe('the tail of a command', () => {
  it("keeps each stream's lines whole when the chunks of two streams interleave", () => {
    const tail = createTail()
    const [out, err] = [tail.stream(), tail.stream()]
    out('[ERROR] Failed to exec')
    err('warning: dep')
    out('ute goal\n')
    err('recated\nnot a line yet')
    expect(tail.lines()).toEqual([
      '[ERROR] Failed to execute goal',
      'warning: deprecated',
      'not a line yet',
    ])
  })

  it('keeps the last non-blank lines only, each cut to a readable length', () => {
    const tail = createTail()
    const out = tail.stream()
    for (let i = 1; i <= 100; i++) out(`line ${i}\n\n   \r\n`)
    out(`${'x'.repeat(100_000)}\n`)
    const lines = tail.lines()
    expect(lines).toHaveLength(TAIL_LINES)
    expect(lines[0]).toBe(`line ${100 - TAIL_LINES + 2}`)
    expect(lines.at(-1)).toBe(`${'x'.repeat(400)}...`)
  })

  it('takes colours out and escapes what would command the terminal', () => {
    const tail = createTail()
    tail.stream()('\u001b[31mred\u001b[0m \u001b]0;title\u0007 bell\u0007 \u202eevil\n')
    expect(tail.lines()).toEqual(['red  bell\\u0007 \\u202eevil'])
  })
})
