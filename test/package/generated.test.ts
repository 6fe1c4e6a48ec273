// Generated files are committed (the package ships them; editors read the JSON Schema), and
// `npm run generate` writes them all: this fails when any is stale, naming the file and its source.
// It runs `npm run generate -- --check` as a maintainer would, in a process of its own: in a test
// worker shared with other files (the fast project), the scenario JSON Schema once came out
// different from a fresh process's (zod writes it from module state; the cause was not found).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { GENERATED } from '../../scripts/generate.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

it(`has every generated file (${GENERATED.map((g) => g.target).join(', ')}) as \`npm run generate\` writes it now`, () => {
  const check = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  expect(check.stderr, 'the stale ones, each with its source').toBe('')
  expect(check.status).toBe(0)
})
