// `npm run probe`: the script runs on its own, with commander's usage errors and exit codes.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'node',
      ['--import', 'tsx', 'src/probe/main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, PIX_CLIENT_SECRET: 'env-secret-xyz' } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

it('exits 2 on a refused target and on bad usage, 0 on --help', async () => {
  const [refused, usage, help] = await Promise.all([
    run(['http://staging.example.com/api/v1', '--client-id', 'me']),
    run(['--rate', 'fast']),
    run(['--help']),
  ])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toMatch(/refusing plain http to staging\.example\.com/)
  expect(refused.stderr + refused.stdout).not.toContain('env-secret-xyz')
  expect(usage.code).toBe(2)
  expect(usage.stderr).toMatch(/error: /)
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('--create-charges <n>')
})
