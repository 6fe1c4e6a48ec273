// The README's test-suite example is a whole file that passes: copied as it stands into a
// project, next to its own vitest config, with `pix-sandbox` resolved to this repository's
// sources. (test/package/tarball.test.ts runs the same file against the packed tarball and
// typechecks it against the published types.)
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { expect, it } from 'vitest'
import { readmeTestFile } from './readme.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

it("passes as written: imports, the sandbox's lifecycle, and an assertion on the balance", async () => {
  const { code, line } = readmeTestFile()
  // What the example promises: it checks what its test's name says.
  expect(code, `README.md line ${line}`).toMatch(
    /expect\(await shop\.control\.balance\(\)\)\.toBe\(1000\)/,
  )
  // Inside the repository, so that vitest and the server's dependencies resolve from its node_modules.
  const dir = join(ROOT, 'node_modules/.cache/readme-snippet', String(process.pid))
  mkdirSync(dir, { recursive: true })
  try {
    writeFileSync(join(dir, 'readme.test.ts'), code)
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { resolve: { alias: { 'pix-sandbox': ${JSON.stringify(join(ROOT, 'src/index.ts'))} } }, test: { include: ['readme.test.ts'] } }\n`,
    )
    const result = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mjs'],
      { cwd: dir, timeout: 60_000 },
    ).catch((err: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: err.stdout ?? '',
      stderr: `${err.stderr ?? ''} (exit ${err.code})`,
    }))
    const out = stripVTControlCharacters(result.stdout + result.stderr)
    expect(out).toMatch(/Tests +1 passed \(1\)/)
    expect(out).not.toMatch(/failed/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 90_000)
