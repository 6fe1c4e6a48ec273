// Run by scripts/build.mjs: writes dist/scenarios.compiled.json, the shipped scenarios parsed
// and validated, keyed by the SHA-256 of each file's text (src/scenarios/compiled.ts).
import { isDeepStrictEqual } from 'node:util'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { COMPILED_FILE, textHash } from '../src/scenarios/compiled.js'
import { parseScenarioText } from '../src/scenarios/loader.js'

export function compileScenarios(scenariosDir: string, outDir: string): string[] {
  const table: Record<string, unknown> = {}
  const names = readdirSync(scenariosDir).filter(
    (f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.schema.json'),
  )
  for (const name of names) {
    const text = readFileSync(join(scenariosDir, name), 'utf8')
    const scenario = parseScenarioText(text, name)
    // What is stored is JSON: a scenario that JSON would change cannot be precompiled.
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(scenario)), scenario))
      throw new Error(`${name}: not plain JSON once validated`)
    table[textHash(text)] = scenario
  }
  writeFileSync(join(outDir, COMPILED_FILE), JSON.stringify(table))
  return names
}
