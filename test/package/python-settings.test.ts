// The Python package's start() leaves the server's settings out of its server's environment (a
// CI job's SEED or SCENARIO is for another server): its list must name every variable the server
// reads, or a setting added to config.ts would reach every Python fixture's sandbox again.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SETTING_VARIABLES } from '../../src/config.js'

const PROCESS_PY = new URL('../../clients/python/src/pix_sandbox/process.py', import.meta.url)

describe("the Python package's start()", () => {
  it('leaves out exactly the variables the server reads its settings from', () => {
    const source = readFileSync(PROCESS_PY, 'utf8')
    const list = /^SERVER_SETTINGS = frozenset\(\s*\{([^}]*)\}\s*\)/m.exec(source)
    expect(list, 'SERVER_SETTINGS = frozenset({...}) in process.py').not.toBeNull()
    const names = [...list![1]!.matchAll(/"([A-Z_]+)"/g)].map((m) => m[1])
    expect(names.sort()).toEqual([...SETTING_VARIABLES].sort())
  })
})
