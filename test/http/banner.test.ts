// The start banner (src/main.ts) and the README print one and the same address, and it works:
// a newcomer copies it from either and lands on the same running server.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { webhookExposure } from '../../src/webhooks/allowed-hosts.js'
import { HANG_MS } from '../hang.js'
import { SCENARIOS_DIR } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Starts `src/main.ts` on a free port and returns its banner once printed; the process is stopped after `use`. */
async function withBanner(
  env: Record<string, string>,
  use: (banner: string) => Promise<void>,
): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DATABASE: ':memory:',
      SCENARIOS_DIR,
      LOG_LEVEL: 'silent',
      SANDBOX_ADMIN_TOKEN: 'banner-test-token',
      PUBLIC_URL: '',
      ...env,
    },
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
      expect(addresses, banner).toEqual([
        `http://127.0.0.1:${port}/api/v1`,
        `http://127.0.0.1:${port}/docs`,
        `http://127.0.0.1:${port}/_sandbox/health`,
        `http://127.0.0.1:${port}/_sandbox/ui`,
      ])
      for (const address of addresses.slice(1))
        expect((await fetch(address)).status, address).toBe(200)
    })
  }
})

/** Starts `src/main.ts` on port 0 and returns its banner, then stops it. */
function bannerOf(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, ['src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        DATABASE: ':memory:',
        SCENARIOS_DIR,
        LOG_LEVEL: 'silent',
        SANDBOX_ADMIN_TOKEN: 'banner-test-token-0123456789',
        ...env,
      },
    })
    let out = ''
    const timer = setTimeout(
      () => (child.kill('SIGKILL'), reject(new Error(`no banner: ${out}`))),
      HANG_MS,
    )
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
  const [open, listed] = await Promise.all([
    bannerOf({ HOST: '0.0.0.0' }),
    bannerOf({ HOST: '0.0.0.0', WEBHOOK_ALLOWED_HOSTS: 'hooks.internal,app:3000' }),
  ])
  expect(open).toMatch(
    /webhooks +sent to any host, this machine's own ports included, for anyone who reaches 0\.0\.0\.0: set WEBHOOK_ALLOWED_HOSTS=/,
  )
  expect(listed).toMatch(
    /webhooks +sent only to hooks\.internal, app:3000 \(WEBHOOK_ALLOWED_HOSTS\)/,
  )
})

it('treats every loopback address as loopback, and everything else as reachable', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
    expect(webhookExposure(host, undefined)).toBeNull()
  expect(webhookExposure('127.0.0.1', ['hooks.internal'])).toBe(
    'sent only to hooks.internal (WEBHOOK_ALLOWED_HOSTS)',
  )
  for (const host of ['0.0.0.0', '::', '192.168.0.10', 'sandbox.example'])
    expect(webhookExposure(host, undefined)).toContain('WEBHOOK_ALLOWED_HOSTS=')
})

it('says where START_TIME froze the clock of a new store', async () => {
  await withBanner({ START_TIME: '2026-03-01T09:00:00-03:00' }, async (banner) => {
    expect(banner).toContain(
      '  clock        frozen at 2026-03-01T12:00:00.000000Z (START_TIME; POST /_sandbox/clock/resume lets it run)\n',
    )
  })
})

// The credentials and sources printed are those in force: a start with flags or another scenario
// never prints what answers 401 there, nor names a variable that was not set.
describe('what the banner says it runs with', () => {
  const TSX = import.meta.resolve('tsx')
  const dir = mkdtempSync(join(tmpdir(), 'pix-banner-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'scenarios'))
  writeFileSync(
    join(dir, 'scenarios/mine.yaml'),
    'companies:\n  - id: mine\n    name: Minha Loja\n    users:\n      - id: mine-user\n        credentials:\n          - { client_id: mine-old, client_secret: mine-old-secret, revoked: true }\n          - { client_id: mine-client, client_secret: mine-secret }\n',
  )

  /** Starts the CLI from the sources in `dir`; resolves once the banner is printed. */
  async function start(args: string[], env: Record<string, string> = {}) {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) =>
          !/^(PORT|HOST|DATABASE|SCENARIO|SCENARIOS_DIR|PUBLIC_URL|SANDBOX_ADMIN_TOKEN|LOG_LEVEL|SEED)$/.test(
            k,
          ),
      ),
    )
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/cli.ts'), ...args], {
      cwd: dir,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    let out = ''
    const banner = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => (out += d) && /admin token.*\n/.test(out) && resolve(out))
      child.stderr.on('data', (d) => (out += d))
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
    })
    const url = /listening on (\S+)/.exec(banner)![1]!
    const stop = async () => (child.kill('SIGTERM'), await exited)
    return { banner, url, stop }
  }
  const signsIn = async (url: string, banner: string) => {
    const [clientId, secret] = /credentials +([^:\s]+):(\S+) /.exec(banner)!.slice(1) as [
      string,
      string,
    ]
    return (
      await fetch(`${url}/api/v1/user/company`, {
        headers: { authorization: `Basic ${btoa(`${clientId}:${secret}`)}` },
      })
    ).status
  }

  it("prints another scenario's own working credential, and names the flags that gave each setting", async () => {
    const s = await start([
      '--scenario',
      'mine',
      '--scenarios-dir',
      'scenarios',
      '--admin-token',
      'from-a-flag-0123456789',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--log-level',
      'warn',
    ])
    try {
      expect(s.banner).toContain(
        "credentials  mine-client:mine-secret (Minha Loja); the scenario's credentials are in scenarios/mine.yaml\n",
      )
      expect(s.banner).not.toContain('sandbox-client')
      expect(await signsIn(s.url, s.banner)).toBe(200)
      expect(s.banner).toContain('scenario     mine (--scenario), loaded into the new store')
      expect(s.banner).toContain('admin token  from --admin-token')
      expect(s.banner).toContain('store        :memory: (--db)')
      expect(s.banner).toMatch(
        /settings +port \d+ \(--port\), host 127\.0\.0\.1 \(default\), log level warn \(--log-level\), no seed\n/,
      )
    } finally {
      await s.stop()
    }
  })

  it('names the variables, or the default, where no flag was given', async () => {
    const s = await start([], {
      PORT: '0',
      DATABASE: ':memory:',
      SANDBOX_ADMIN_TOKEN: 'from-a-variable-0123456789',
      SEED: 'abc',
    })
    try {
      expect(s.banner).toContain(
        "credentials  sandbox-client:sandbox-secret (Loja Exemplo Ltda); the scenario's credentials are in ",
      )
      expect(await signsIn(s.url, s.banner)).toBe(200)
      expect(s.banner).toContain('scenario     default (default), loaded into the new store')
      expect(s.banner).toContain('admin token  from SANDBOX_ADMIN_TOKEN')
      expect(s.banner).toMatch(
        /settings +port \d+ \(PORT\), host 127\.0\.0\.1 \(default\), log level info \(default\), seed abc \(SEED\)\n/,
      )
    } finally {
      await s.stop()
    }
  })

  it('on a store that holds state, prints its scenario and the first of its credentials that still signs in', async () => {
    const args = ['--port', '0', '--db', 'kept.db', '--admin-token', 'kept-store-token-0123456789']
    let s = await start([...args, '--scenario', 'many-users'])
    try {
      expect(s.banner).toContain('credentials  seller-1:seller-1-secret (Marketplace Exemplo SA)')
      const removed = await fetch(`${s.url}/_sandbox/companies/marketplace`, {
        method: 'DELETE',
        headers: { authorization: 'Bearer kept-store-token-0123456789' },
      })
      expect(removed.status).toBe(204)
    } finally {
      await s.stop()
    }
    s = await start(args)
    try {
      // No scenario was asked for: the store's is simply the one in force.
      expect(s.banner).toMatch(/\n  scenario     many-users, kept in the store\n/)
      expect(s.banner).toContain('credentials  other-client:other-secret (')
      expect(await signsIn(s.url, s.banner)).toBe(200)
    } finally {
      await s.stop()
    }
    // One asked for that the store does not hold: said plainly, with what to do.
    s = await start([...args, '--scenario', 'default'])
    try {
      expect(s.banner).toMatch(
        /\n  scenario     many-users, kept in the store; "default" \(--scenario\) was not loaded, as the store holds state: delete kept\.db for a fresh start, or apply it with POST \/_sandbox\/scenarios\n/,
      )
    } finally {
      await s.stop()
    }
    // The one the store holds.
    s = await start([...args, '--scenario', 'many-users'])
    try {
      expect(s.banner).toMatch(/\n  scenario     many-users \(--scenario\), kept in the store\n/)
    } finally {
      await s.stop()
    }
  })
})
