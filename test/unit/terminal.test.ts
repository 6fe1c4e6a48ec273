// Text from elsewhere on its way to a terminal: every control character shown escaped, ordinary
// text (accents, emoji) as it is; and the server's log lines, which may quote a client.
import { describe, expect, it } from 'vitest'
import { createLog } from '../../src/log.js'
import { escapeControls, escapeStrings, terminalJson } from '../../src/terminal.js'

describe('escapeControls', () => {
  it('escapes C0, DEL, C1 and the bidi controls, and keeps ordinary text', () => {
    expect(escapeControls('\u001b]0;TITLE\u0007\u001b[2J')).toBe('\\u001b]0;TITLE\\u0007\\u001b[2J')
    expect(escapeControls('a\u007fb\u0085c\u009bd')).toBe('a\\u007fb\\u0085c\\u009bd')
    expect(escapeControls('\u202eevil\u2066x\u2069\u200f\u061c\u2028')).toBe(
      '\\u202eevil\\u2066x\\u2069\\u200f\\u061c\\u2028',
    )
    expect(escapeControls('Padaria São João · R$ 10,00 ✓ 😀')).toBe(
      'Padaria São João · R$ 10,00 ✓ 😀',
    )
  })

  it("escapes line feeds unless the lines are the caller's own", () => {
    expect(escapeControls('a\r\nb\tc')).toBe('a\\u000d\\u000ab\\u0009c')
    expect(escapeControls('a\r\nb\n', { keepLines: true })).toBe('a\\u000d\nb\n')
  })

  it('keeps a JSON text the same data', () => {
    const data = { detail: '\u001b[2J\u009b\u202e\n', list: ['\u007f'] }
    const text = escapeControls(JSON.stringify(data, null, 2), { keepLines: true })
    expect(text).not.toMatch(/[\u007f-\u009f\u202e]/)
    expect(JSON.parse(text)).toEqual(data)
  })
})

describe('the log', () => {
  it('writes one line per message, whatever the message and its fields hold', () => {
    const lines: string[] = []
    const log = createLog('debug', (l) => lines.push(l))
    log.error('unexpected failure\n2026-01-01T00:00:00.000Z info  forged', {
      path: '/api/v1/\u009b2J\u202e',
      error: 'x\u001b]0;T\u0007',
    })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.split('\n')).toEqual([
      expect.stringMatching(
        / error unexpected failure\\u000a2026-01-01T00:00:00.000Z info {2}forged \{"path":"\/api\/v1\/\\u009b2J\\u202e","error":"x\\u001b\]0;T\\u0007"\}$/,
      ),
      '',
    ])
  })
})

describe('escapeStrings and terminalJson', () => {
  it('escape every string of a report, keys included, and keep the JSON the same data', () => {
    const report = { id: 'a\u001b[2J', list: ['\u202e', 1, null, { 'k\u009b': 'v\n' }] }
    expect(escapeStrings(report)).toEqual({
      id: 'a\\u001b[2J',
      list: ['\\u202e', 1, null, { 'k\\u009b': 'v\\u000a' }],
    })
    const json = terminalJson(report)
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/)
    expect(JSON.parse(json)).toEqual(report)
  })
})
