// docs/READINESS.md says what the catalog holds: every behaviour with its `how`, word for word,
// and every finding with its severity and advice; nothing the catalog does not have. The README
// points to it, and stays a landing page (at most 200 lines).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BEHAVIOURS, FINDINGS } from '../../src/readiness/catalog.js'

const doc = readFileSync(new URL('../../docs/READINESS.md', import.meta.url), 'utf8')
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const rows = (text: string) => text.split('\n').filter((l) => /^\| `[a-z_.]+` \|/.test(l))

describe('docs/READINESS.md', () => {
  it('lists every behaviour with its how, as the server answers it', () => {
    const table = rows(doc).filter((l) => BEHAVIOURS.some((b) => l.startsWith(`| \`${b.id}\` |`)))
    expect(table).toEqual(BEHAVIOURS.map((b) => `| \`${b.id}\` | ${b.how} |`))
  })

  it('lists every finding with its severity and advice', () => {
    for (const f of FINDINGS) {
      const row = rows(doc).find((l) => l.startsWith(`| \`${f.id}\` | ${f.severity} |`))
      expect(row, f.id).toBeDefined()
      expect(row!.endsWith(`| ${f.advice} |`), f.id).toBe(true)
    }
    const ids = new Set<string>([...BEHAVIOURS.map((b) => b.id), ...FINDINGS.map((f) => f.id)])
    const documented = rows(doc)
      .map((l) => /^\| `([a-z_.]+)` \|/.exec(l)![1]!)
      .filter((id) => /^(charge|transfer|company|webhook)\.|_/.test(id))
    expect(
      documented.filter(
        (id) =>
          !ids.has(id) &&
          !['valid', 'duplicate', 'bad_signature', 'stale_timestamp', 'unknown_type'].includes(id),
      ),
    ).toEqual([])
  })

  it('the README links to it and stays within 200 lines', () => {
    expect(readme).toContain('(docs/READINESS.md)')
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200)
  })
})
