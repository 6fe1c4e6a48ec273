// npm run test:fast runs every test of npm test but those vitest.tiers.ts names slow: each
// name must still be a test file (or a folder holding some), or a renamed slow test would quietly
// join the fast tier and a stale name would hide nothing.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EXCLUDE, SLOW } from '../../vitest.tiers.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

function* testFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* testFiles(path)
    else if (entry.name.endsWith('.test.ts')) yield relative(ROOT, join(ROOT, path))
  }
}

/** `npm test`'s files: under test/ or src/, outside what its config excludes (the reliability suite). */
const all = [...testFiles('test'), ...testFiles('src')].filter(
  (f) => !EXCLUDE.some((x) => f.startsWith(x.replace('**', ''))),
)
const matches = (entry: string, file: string) =>
  entry.endsWith('/**') ? file.startsWith(entry.slice(0, -2)) : file === entry

describe('the fast tier', () => {
  it('names as slow only test files npm test runs', () => {
    expect(SLOW.filter((entry) => !all.some((f) => matches(entry, f)))).toEqual([])
  })

  it('names as slow every file that drives chromium (seconds each: a browser to start)', () => {
    const drives = all.filter((f) =>
      /from '(\.\/|\.\.\/ui\/)browser\.js'/.test(readFileSync(join(ROOT, f), 'utf8')),
    )
    expect(drives.length).toBeGreaterThan(0)
    expect(drives.filter((f) => !SLOW.some((entry) => matches(entry, f)))).toEqual([])
  })

  it('leaves most of the suite fast', () => {
    const slow = all.filter((f) => SLOW.some((entry) => matches(entry, f)))
    expect(all.length - slow.length).toBeGreaterThan(2 * slow.length)
  })
})
