// The shipped scenarios precompiled at build time must be exactly what parsing gives, and a file
// changed after the build must be parsed again, never answered from the table.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compileScenarios } from '../../scripts/compile-scenarios.js'
import { COMPILED_FILE, compiledLookup } from '../../src/scenarios/compiled.js'
import { parseScenarioText } from '../../src/scenarios/loader.js'

const SCENARIOS = join(import.meta.dirname, '../../scenarios')
const out = mkdtempSync(join(tmpdir(), 'pix-compiled-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe('precompiled scenarios', () => {
  const names = compileScenarios(SCENARIOS, out)
  const lookup = compiledLookup(join(out, COMPILED_FILE))

  it('holds every shipped scenario, equal to what parsing the file gives', () => {
    expect(names).toEqual(
      expect.arrayContaining([
        'default.yaml',
        'many-users.yaml',
        'short-lived-charges.yaml',
        'unreliable-transfers.yaml',
      ]),
    )
    expect(names).not.toContain('scenario.schema.json')
    for (const name of names) {
      const text = readFileSync(join(SCENARIOS, name), 'utf8')
      expect(lookup(text)).toEqual(parseScenarioText(text, name))
    }
  })

  it('answers nothing for a file changed after the build', () => {
    const text = readFileSync(join(SCENARIOS, 'default.yaml'), 'utf8')
    expect(lookup(text)?.companies[0]?.name).toBe('Loja Exemplo Ltda')
    expect(
      lookup(text.replace('name: Loja Exemplo Ltda', 'name: Loja Mudada Ltda')),
    ).toBeUndefined()
  })

  it('hands out copies: changing one does not change the next', () => {
    const text = readFileSync(join(SCENARIOS, 'default.yaml'), 'utf8')
    const first = lookup(text)!
    first.description = 'changed'
    expect(lookup(text)!.description).not.toBe('changed')
  })

  it('answers nothing when there is no table (running from the sources)', () => {
    const none = compiledLookup(join(out, 'missing.json'))
    expect(none(readFileSync(join(SCENARIOS, 'default.yaml'), 'utf8'))).toBeUndefined()
  })

  it('refuses to build from an invalid shipped scenario', () => {
    const bad = mkdtempSync(join(tmpdir(), 'pix-compiled-bad-'))
    try {
      writeFileSync(join(bad, 'broken.yaml'), 'settings:\n  charge_ttl_seconds: -1\n')
      expect(() => compileScenarios(bad, out)).toThrow(/broken\.yaml.*charge_ttl_seconds/)
    } finally {
      rmSync(bad, { recursive: true, force: true })
    }
  })
})
