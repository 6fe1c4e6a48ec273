// The start banner (src/main.ts) and the README print one and the same address, and it works:
// a newcomer copies it from either and lands on the same running server.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { SCENARIOS_DIR } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Starts `src/main.ts` on a free port and returns its banner once printed; the process is stopped after `use`. */
async function withBanner(env: Record<string, string>, use: (banner: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATABASE: ':memory:', SCENARIOS_DIR, LOG_LEVEL: 'silent', SANDBOX_ADMIN_TOKEN: 'banner-test-token', PUBLIC_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let out = ''
      let err = ''
      child.stdout.on('data', (d) => (out += d) && /admin token.*\n/.test(out) && resolve(out))
      child.stderr.on('data', (d) => (err += d))
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)))
    })
    await use(banner)
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

it('prints http://127.0.0.1:<port>, as the README does, whatever interface it listens on', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  expect(readme).toContain('<http://127.0.0.1:8080/docs>')
  expect(readme).toContain('`base_url` at `http://127.0.0.1:8080/api/v1`')
  for (const host of ['127.0.0.1', '0.0.0.0']) {
    await withBanner({ HOST: host }, async (banner) => {
      const port = /listening on http:\/\/[\d.]+:(\d+)/.exec(banner)![1]
      const addresses = banner.match(/https?:\/\/\S+/g)!.slice(1)
      expect(addresses, banner).toEqual([`http://127.0.0.1:${port}/api/v1`, `http://127.0.0.1:${port}/docs`, `http://127.0.0.1:${port}/_sandbox/health`])
      for (const address of addresses.slice(1)) expect((await fetch(address)).status, address).toBe(200)
    })
  }
}, 60_000)
