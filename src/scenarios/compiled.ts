// The shipped scenarios, parsed and validated when the package is built (scripts/build.mjs), so
// that a cold start does not pay for them: on a cold JIT, YAML parsing and zod validation of the
// default scenario took about half of `startSandbox()`'s CPU time. A file is looked up by the
// SHA-256 of its text, so a scenario edited after the build, or any other file, is parsed as
// usual; from the sources (no build, no table) every file is.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Scenario } from './schema.js'

export const COMPILED_FILE = 'scenarios.compiled.json'

export const textHash = (text: string): string => createHash('sha256').update(text).digest('hex')

/** A lookup in the table at `file`, read on first use; no table, no match. */
export function compiledLookup(file: URL | string): (text: string) => Scenario | undefined {
  let table: Record<string, Scenario> | null | undefined
  return (text) => {
    if (table === undefined) {
      try {
        table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Scenario>
      } catch {
        table = null
      }
    }
    const scenario = table?.[textHash(text)]
    // A copy: the caller may keep or change it.
    return scenario && structuredClone(scenario)
  }
}

/** The table beside the bundle's chunks in dist/. */
export const compiledScenario = compiledLookup(new URL(`./${COMPILED_FILE}`, import.meta.url))
