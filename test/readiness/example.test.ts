// examples/exec: a suite in shell and curl, run under `pix-sandbox exec --min-coverage 70` as its
// README says (and as CI runs it, through npm test): it passes, meets 24 of the 32 behaviours,
// raises no finding, and exits 0; the same run gated higher exits 1.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'
import { wellFormedXml } from './xml.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'pix-example-exec-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const exec = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli.ts'), 'exec', ...args],
      { cwd: ROOT, timeout: HANG_MS },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })

describe('examples/exec', () => {
  it('passes under exec --min-coverage 70: 24 of 32 met, no findings, exit 0', async () => {
    const junit = join(dir, 'readiness.xml')
    const r = await exec([
      '--min-coverage',
      '70',
      '--junit',
      junit,
      '--',
      'bash',
      'examples/exec/suite.sh',
    ])
    expect(r.stdout).toMatch(/^TAP version 13\n/)
    expect(r.stdout).not.toContain('not ok')
    expect(r.stdout).toContain('1..24')
    expect(r.stderr).toContain('pix-sandbox readiness: 24 of 32 behaviours met (75%), no findings')
    expect(r.code).toBe(0)
    const xml = readFileSync(junit, 'utf8')
    expect(wellFormedXml(xml)).toEqual([])
    expect(xml).toMatch(/<testsuites name="pix-sandbox readiness" tests="49" failures="0"/)
  })

  it('the same run gated at 80% exits 1, saying why', async () => {
    const r = await exec(['--min-coverage', '80', '--', 'bash', 'examples/exec/suite.sh'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('Result: exit 1: coverage 75% is under --min-coverage 80')
  })
})
