// compose.yaml and docs/DEPLOY.md's GitHub Actions `services:` snippet, checked without a Docker
// engine (CI has none): they must agree with the Dockerfile (port, volume, health check) and with
// the configuration (every variable documented and valid), and the health check they declare must
// pass against a running sandbox and fail without one. Where `docker compose` answers, its own
// `config` validation runs too.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadConfig } from '../../src/config.js'
import { containerHostGuard, imageSettings, repositoryDockerfile } from '../dockerfile.js'
import { HANG_MS } from '../hang.js'
import { startTestSandbox } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(ROOT + file, 'utf8')
const image = imageSettings(repositoryDockerfile())
const compose = parse(read('compose.yaml')) as any
const readme = read('README.md')

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?error}`, here with no variable set. */
const interpolate = (value: string) =>
  value.replace(
    /\$\{(\w+)(?::?([-?])([^}]*))?\}/g,
    (_, _name, op: string | undefined, arg: string | undefined) => (op === '-' ? (arg ?? '') : ''),
  )

/** The variables of the README's configuration table. */
const documented = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1])

/** DEPLOY.md's `services:` snippet, from its CI section. */
function servicesSnippet(): any {
  const deploy = read('docs/DEPLOY.md')
  const section = deploy.slice(
    deploy.indexOf('\n## A service container in CI'),
    deploy.indexOf('\n## ', deploy.indexOf('\n## A service container in CI') + 1),
  )
  const block = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => b.includes('services:'))
  expect(block, 'a ```yaml block with services: in the CI section').toBeDefined()
  return parse(block!)
}

function checkEnvironment(env: Record<string, string>) {
  expect(
    Object.keys(env).filter((k) => !documented.includes(k)),
    'variables not in the configuration table',
  ).toEqual([])
  expect(() => loadConfig({ ...image.env, ...env })).not.toThrow()
}

describe('compose.yaml', () => {
  const services = Object.entries(compose.services as Record<string, any>)
  const [name, service] = services[0]!

  it('builds one service from the Dockerfile at the top', () => {
    expect(services).toHaveLength(1)
    expect(name).toBe('pix-sandbox')
    const build = typeof service.build === 'string' ? { context: service.build } : service.build
    expect(build.context).toBe('.')
    expect(existsSync(ROOT + (build.dockerfile ?? 'Dockerfile'))).toBe(true)
  })

  it("publishes the image's port, on this machine only", () => {
    const port = image.env.PORT!
    expect(image.exposed).toContain(port)
    expect(service.ports).toEqual([`127.0.0.1:${port}:${port}`])
  })

  it("keeps the store in a named volume at the image's volume", () => {
    const dataDir = posix.dirname(image.env.DATABASE!)
    expect(image.volumes).toContain(dataDir)
    expect(service.volumes).toEqual([`pix-sandbox-data:${dataDir}`])
    expect(Object.keys(compose.volumes)).toEqual(['pix-sandbox-data'])
  })

  it('documents and sets only valid configuration variables', () => {
    const env = Object.fromEntries(
      Object.entries(service.environment as Record<string, string>).map(([k, v]) => [
        k,
        interpolate(v),
      ]),
    )
    expect(Object.keys(env).length).toBeGreaterThan(0)
    checkEnvironment(env)
    // Each variable has a comment above it.
    const text = read('compose.yaml')
    for (const key of Object.keys(env))
      expect(text, key).toMatch(new RegExp(`#[^\\n]*\\n\\s+${key}:`))
  })

  it('keeps the guard against DNS rebinding on, answering the names the machine and the compose network reach it by', () => {
    // The image listens on 0.0.0.0, where the guard is off unless ALLOWED_HOSTS is set; the port
    // is published on 127.0.0.1, as reachable by a rebound name as a local server.
    const env = Object.fromEntries(
      Object.entries(service.environment as Record<string, string>).map(([k, v]) => [
        k,
        interpolate(v),
      ]),
    )
    const allows = containerHostGuard({ ...image.env, ...env })
    expect(allows, 'the Host guard is on in the container').toBeDefined()
    const port = image.env.PORT!
    expect(allows!(`rebind.attacker.example:${port}`)).toBe(false)
    // This machine (and the health check, which asks 127.0.0.1), and the other services.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `pix-sandbox:${port}`])
      expect(allows!(host), host).toBe(true)
  })

  it('runs with a read-only root file system and a writable /tmp, as in Kubernetes', () => {
    expect(service.read_only).toBe(true)
    expect(service.tmpfs).toEqual(['/tmp'])
  })

  it("restates the image's health check, which passes against a sandbox and fails without one", async () => {
    const hc = service.healthcheck
    // The Dockerfile's shell form is compose's CMD-SHELL.
    const [shell, dashC, line] = image.healthcheck!.argv
    expect([shell, dashC]).toEqual(['/bin/sh', '-c'])
    expect(hc.test).toEqual(['CMD-SHELL', line])
    expect(hc.test.join(' ')).toContain('/_sandbox/health')
    for (const flag of ['interval', 'timeout', 'start-period', 'retries']) {
      expect(String(hc[flag.replace('-', '_')]), flag).toBe(image.healthcheck!.flags[flag])
    }
    const sandbox = await startTestSandbox()
    // Asynchronously: the sandbox answers from this very process.
    const check = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn('/bin/sh', ['-c', hc.test[1]], {
          env: { ...process.env, PORT: String(sandbox.port) },
          // Its verdict, not its speed: the timeout compose gives it is checked above.
          timeout: HANG_MS,
        })
        child.on('close', resolve)
      })
    try {
      expect(await check()).toBe(0)
    } finally {
      await sandbox.close()
    }
    expect(await check()).not.toBe(0)
  })

  it('is valid for `docker compose config`, where Docker Compose is installed', () => {
    const version = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' })
    if (version.status !== 0) {
      console.info(
        'compose.yaml: `docker compose` is not installed here; its shape was checked above only',
      )
      return
    }
    const r = spawnSync('docker', ['compose', '-f', ROOT + 'compose.yaml', 'config', '--quiet'], {
      encoding: 'utf8',
    })
    expect(r.status, r.stderr).toBe(0)
  })
})

describe("DEPLOY.md's GitHub Actions services: snippet", () => {
  it("runs the image with its port, a pinned admin token and the image's health check", () => {
    const job = Object.values(servicesSnippet().jobs as Record<string, any>)[0]
    const service = job.services['pix-sandbox']
    expect(service.image).toMatch(/pix-sandbox/)
    const port = image.env.PORT!
    expect(service.ports).toEqual([`${port}:${port}`])
    checkEnvironment(service.env)
    expect(service.env.SANDBOX_ADMIN_TOKEN).toBeDefined()
    // Only the timing is overridden: Docker keeps the image's HEALTHCHECK command.
    expect(service.options).not.toContain('--health-cmd')
    expect(service.options).toMatch(/--health-interval \d+s/)
    const baseUrl = Object.values(job.env as Record<string, string>).find((v) =>
      v.includes('/api/v1'),
    )
    expect(baseUrl).toBe(`http://localhost:${port}/api/v1`)
  })
})
