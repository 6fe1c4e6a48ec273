// The start banner says where webhooks may go when the server is reachable from other machines
// (#14 item 9): any company credential can make it send requests, and the default ones are public.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { webhookExposure } from '../../src/webhooks/allowed-hosts.js'
import { SCENARIOS_DIR } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Starts `src/main.ts` on port 0 and returns its banner, then stops it. */
function banner(env: Record<string, string>): Promise<string> {
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
  const [open, listed] = await Promise.all([banner({ HOST: '0.0.0.0' }), banner({ HOST: '0.0.0.0', WEBHOOK_ALLOWED_HOSTS: 'hooks.internal,app:3000' })])
  expect(open).toMatch(/webhooks +sent to any host, this machine's own ports included, for anyone who reaches 0\.0\.0\.0: set WEBHOOK_ALLOWED_HOSTS=/)
  expect(listed).toMatch(/webhooks +sent only to hooks\.internal, app:3000 \(WEBHOOK_ALLOWED_HOSTS\)/)
}, 60_000)

it('treats every loopback address as loopback, and everything else as reachable', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(webhookExposure(host, undefined)).toBeNull()
  expect(webhookExposure('127.0.0.1', ['hooks.internal'])).toBe('sent only to hooks.internal (WEBHOOK_ALLOWED_HOSTS)')
  for (const host of ['0.0.0.0', '::', '192.168.0.10', 'sandbox.example']) expect(webhookExposure(host, undefined)).toContain('WEBHOOK_ALLOWED_HOSTS=')
})
