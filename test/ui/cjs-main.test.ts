// A suite whose main module is CommonJS (Jest, mocha) gives hono/jsx a second way to the
// storage: the main module's require. Checked in a process of its own, as such a suite runs
// (test/ui/http.test.ts checks the ESM case in the test's own process).
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'

it('renders its pages without starting an AsyncLocalStorage under a CommonJS main module too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-cjs-'))
  try {
    const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url))
    writeFileSync(
      join(dir, 'suite.cjs'),
      `const { AsyncLocalStorage } = require('node:async_hooks')
let runs = 0
const run = AsyncLocalStorage.prototype.run
AsyncLocalStorage.prototype.run = function (...args) { runs++; return run.apply(this, args) }
import(${JSON.stringify(entry)}).then(async ({ startSandbox }) => {
  const sb = await startSandbox()
  const page = await fetch(sb.url + '/_sandbox/ui/sign-in')
  console.log(JSON.stringify({ mainModule: Boolean(process.mainModule), status: page.status, html: (await page.text()).startsWith('<!doctype html>'), runs }))
  await sb.close()
})
`,
    )
    // From the project's folder: tsx reads the JSX settings from its tsconfig.json.
    const root = fileURLToPath(new URL('../..', import.meta.url))
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), join(dir, 'suite.cjs')],
      { cwd: root, timeout: HANG_MS },
    )
    expect(JSON.parse(stdout)).toEqual({ mainModule: true, status: 200, html: true, runs: 0 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
