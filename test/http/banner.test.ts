// The start banner (src/main.ts) and the README print one and the same address, and it works:
// a newcomer copies it from either and lands on the same running server.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { webhookExposure } from '../../src/webhooks/allowed-hosts.js'
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
      expect(addresses, banner).toEqual([`http://127.0.0.1:${port}/api/v1`, `http://127.0.0.1:${port}/docs`, `http://127.0.0.1:${port}/_sandbox/health`, `http://127.0.0.1:${port}/_sandbox/ui`])
      for (const address of addresses.slice(1)) expect((await fetch(address)).status, address).toBe(200)
    })
  }
}, 60_000)

/** Starts `src/main.ts` on port 0 and returns its banner, then stops it. */
function bannerOf(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, ['src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATABASE: ':memory:', SCENARIOS_DIR, LOG_LEVEL: 'silent', SANDBOX_ADMIN_TOKEN: 'banner-test-token-0123456789', ...env },
    })
    let out = ''
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`no banner: ${out}`))), 20_000)
    child.stdout.on('data', (d) => {
      out += d
      if (!out.includes('admin token')) return
      clearTimeout(timer)
      child.once('exit', () => resolve(out))
      child.kill('SIGTERM')
    })
    child.stderr.on('data', (d) => (out += d))
  })
}

it('warns, with the variable to set, when listening beyond loopback without WEBHOOK_ALLOWED_HOSTS', async () => {
  const [open, listed] = await Promise.all([bannerOf({ HOST: '0.0.0.0' }), bannerOf({ HOST: '0.0.0.0', WEBHOOK_ALLOWED_HOSTS: 'hooks.internal,app:3000' })])
  expect(open).toMatch(/webhooks +sent to any host, this machine's own ports included, for anyone who reaches 0\.0\.0\.0: set WEBHOOK_ALLOWED_HOSTS=/)
  expect(listed).toMatch(/webhooks +sent only to hooks\.internal, app:3000 \(WEBHOOK_ALLOWED_HOSTS\)/)
}, 60_000)

it('treats every loopback address as loopback, and everything else as reachable', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(webhookExposure(host, undefined)).toBeNull()
  expect(webhookExposure('127.0.0.1', ['hooks.internal'])).toBe('sent only to hooks.internal (WEBHOOK_ALLOWED_HOSTS)')
  for (const host of ['0.0.0.0', '::', '192.168.0.10', 'sandbox.example']) expect(webhookExposure(host, undefined)).toContain('WEBHOOK_ALLOWED_HOSTS=')
})

it('says where START_TIME froze the clock of a new store', async () => {
  await withBanner({ START_TIME: '2026-03-01T09:00:00-03:00' }, async (banner) => {
    expect(banner).toContain('  clock        frozen at 2026-03-01T12:00:00.000000Z (START_TIME; POST /_sandbox/clock/resume lets it run)\n')
  })
})
