// readScenario keeps parsed files (a reset re-reads its scenario every time), but never serves
// a stale or shared one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { readScenario } from '../../src/scenarios/loader.js'

const dir = mkdtempSync(join(tmpdir(), 'pix-scenario-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('reads a changed file again, and hands out copies that callers may change', () => {
  writeFileSync(join(dir, 'one.yaml'), 'description: first\n')
  const first = readScenario(dir, 'one')
  expect(first.description).toBe('first')
  first.description = 'changed by a caller'
  first.rules.charges.push({ when: {}, then: { auto_pay_after_seconds: 1 } })
  const again = readScenario(dir, 'one')
  expect(again.description).toBe('first')
  expect(again.rules.charges).toEqual([])
  writeFileSync(join(dir, 'one.yaml'), 'description: second, longer\n')
  expect(readScenario(dir, 'one').description).toBe('second, longer')
  writeFileSync(join(dir, 'one.yaml'), 'description: 3\n')
  expect(() => readScenario(dir, 'one')).toThrow(/description/)
})
