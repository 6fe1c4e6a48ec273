// The package as a user gets it: `npm run package` (npm pack, without the scripts), then
// `npm install ./pix-sandbox-<v>.tgz` into a copy
// of examples/vitest (the recipe users copy: its only other dependencies are vitest, at this
// repository's version, standardwebhooks and @types/node), and there: the example's own tests
// and the README's test file,
// the CLI, an embedded sandbox (`import { startSandbox } from 'pix-sandbox'`) that exits by itself
// after close(), and the published types. Only the tarball and the registry (through the npm
// cache) are used: nothing of this repository's node_modules or sources, but its TypeScript.
// The same install serves the other languages' examples, copied into empty folders (outside.ts).
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readmeTestFile } from '../readme/readme.js'
import { describeOutside } from './outside.js'
import { exec, type Outcome } from './run.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const version = (manifest: string): string =>
  JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')).version
const VERSION = version('package.json')
const EXAMPLE = join(ROOT, 'examples/vitest')
// better-sqlite3 compiles from source where no prebuilt binary downloads: 1-2 minutes on a quiet
// 2-core machine, far longer under load.
const INSTALL_TIMEOUT = 15 * 60_000

// One pack and one install for the whole file.
let dir: string
let tarball: string
let app: string
let install: Promise<Outcome>
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pix-pack-'))
  const packed = await exec('npm', ['run', '--silent', 'package', '--', dir], ROOT)
  expect(packed.code, packed.stderr).toBe(0)
  tarball = join(dir, `pix-sandbox-${VERSION}.tgz`)
  expect(packed.stdout.trim().split('\n').at(-1)).toBe(tarball)
  writeFileSync(join(dir, 'package.json'), '{}') // keeps npm from looking above the temp folder
  app = join(dir, 'app')
  cpSync(EXAMPLE, app, { recursive: true, filter: (f) => !f.includes('node_modules') })
  const started = performance.now()
  const vitest = `vitest@${version('node_modules/vitest/package.json')}` // already in the npm cache
  install = exec(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, vitest],
    app,
    INSTALL_TIMEOUT,
  ).then((installed) => {
    // Reported, not asserted (README, "Use it from your test suite"): tarball size and install time.
    console.log(
      `pix-sandbox ${VERSION}: tarball ${(statSync(tarball).size / 1024).toFixed(0)} kB, npm install (with vitest) ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    return installed
  })
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

it('is the size the README says (its "~1.1 MB package"), within a tenth', () => {
  const said = /the ~([\d.]+) (kB|MB) package/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))
  expect(said, 'README: "the ~N MB package"').not.toBeNull()
  const bytes = Number(said![1]) * (said![2] === 'MB' ? 1e6 : 1e3)
  const size = statSync(tarball).size
  expect(size / bytes, `the tarball is ${size} bytes, the README says ${said![0]}`).toBeGreaterThan(
    0.9,
  )
  expect(size / bytes, `the tarball is ${size} bytes, the README says ${said![0]}`).toBeLessThan(
    1.1,
  )
})

describe('the packed tarball, installed into a copy of examples/vitest', () => {
  let installWarnings = ''
  const cli = () => join(app, 'node_modules/.bin/pix-sandbox')

  beforeAll(async () => {
    const installed = await install
    expect(installed.code, installed.stderr).toBe(0)
    installWarnings = installed.stderr
  }, INSTALL_TIMEOUT)

  it('ships the built entries, their types and the scenarios, and no sources or tests', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/pix-sandbox/package.json'), 'utf8'))
    expect(pkg.private).toBeUndefined()
    for (const f of [
      'dist/cli.js',
      'dist/index.js',
      'dist/main.js',
      'dist/types/public.d.ts',
      'scenarios/default.yaml',
    ]) {
      expect(statSync(join(app, 'node_modules/pix-sandbox', f)).isFile(), f).toBe(true)
    }
    for (const f of ['src', 'test', 'bench'])
      expect(() => statSync(join(app, 'node_modules/pix-sandbox', f))).toThrow()
  })

  it("runs the examples/vitest recipe and the README's test file: their tests pass, and they typecheck against the published types", async () => {
    writeFileSync(join(app, 'readme.test.ts'), readmeTestFile().code)
    const [tests, tsc] = await Promise.all([
      exec(join(app, 'node_modules/.bin/vitest'), ['run'], app),
      exec(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
        app,
      ),
    ])
    expect(tests.code, tests.stdout + tests.stderr).toBe(0)
    expect(stripVTControlCharacters(tests.stdout)).toMatch(
      /Test Files +2 passed \(2\)\n +Tests +4 passed \(4\)/,
    )
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.code).toBe(0)
  })

  it("brings no install script but better-sqlite3's, which the example's allowScripts covers: npm warns of none", async () => {
    // npm 11 lists a tarball's `prepare` among the scripts to allow (it would not run it): the
    // packed package.json has no scripts at all.
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/pix-sandbox/package.json'), 'utf8'))
    expect([pkg.scripts, pkg.devDependencies, pkg.allowScripts]).toEqual([
      undefined,
      undefined,
      undefined,
    ])
    expect(installWarnings).not.toMatch(/allowScripts|install-scripts/)
  })

  it("brings no install script but better-sqlite3's (nothing that runs at install, analytics included)", async () => {
    const tree = JSON.parse((await exec('npm', ['ls', '--all', '--long', '--json'], app)).stdout)
    const scripted: string[] = []
    const walk = (name: string, node: { path?: string; dependencies?: Record<string, any> }) => {
      const scripts = node.path
        ? (JSON.parse(readFileSync(join(node.path, 'package.json'), 'utf8')).scripts ?? {})
        : {}
      if (['preinstall', 'install', 'postinstall'].some((s) => s in scripts)) scripted.push(name)
      for (const [dep, child] of Object.entries(node.dependencies ?? {})) walk(dep, child)
    }
    walk('pix-sandbox', tree.dependencies['pix-sandbox'])
    expect(scripted.sort()).toEqual(['better-sqlite3'])
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/pix-sandbox/package.json'), 'utf8'))
    expect(Object.keys(pkg.dependencies)).not.toContain('swagger-ui-dist')
  })

  it('answers --version, --help, and exit 2 with a message for an unknown flag or a bad value', async () => {
    expect((await exec(cli(), ['--version'], app)).stdout.trim()).toBe(VERSION)
    const help = await exec(cli(), ['--help'], app)
    expect(help.code).toBe(0)
    for (const flag of [
      '--port',
      '--host',
      '--db',
      '--scenario',
      '--scenarios-dir',
      '--public-url',
      '--admin-token',
      '--seed',
      '--log-level',
    ]) {
      expect(help.stdout).toContain(flag)
    }
    const unknown = await exec(cli(), ['--prot', '8080'], app)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown option '--prot'")
    const bad = await exec(cli(), ['--port', 'eighty'], app)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--port:')
  })

  it('checks scenario files and prints their JSON Schema', async () => {
    writeFileSync(join(app, 'broken.yaml'), 'companies:\n  - id: x\n    name: 42\n')
    const ok = await exec(
      cli(),
      ['scenario', 'check', 'node_modules/pix-sandbox/scenarios/default.yaml'],
      app,
    )
    expect(ok.code, ok.stderr).toBe(0)
    const broken = await exec(
      cli(),
      ['scenario', 'check', 'node_modules/pix-sandbox/scenarios/default.yaml', 'broken.yaml'],
      app,
    )
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/^broken\.yaml: companies\[0\]\.name \(line 3\): /m)
    const schema = JSON.parse((await exec(cli(), ['scenario', 'schema'], app)).stdout)
    expect(schema.title).toBe('pix-sandbox scenario')
  })

  it('starts the server from the CLI with the packaged scenarios and docs, and stops on SIGTERM', async () => {
    const child = spawn(cli(), ['--port', '0', '--db', ':memory:', '--log-level', 'warn'], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stderr.on('data', (d) => (out += d))
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d
        const m = /listening on (http:\/\/\S+)/.exec(out)
        if (m) resolve(m[1]!)
      })
      child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)))
      // No binary to start (a tarball without dist/): 'error' and no 'exit', not a wait for a hang.
      child.once('error', reject)
    })
    const health = await fetch(`${url}/_sandbox/health`)
    expect(await health.json()).toMatchObject({
      status: 'ok',
      version: VERSION,
      scenario: 'default',
    })
    const company = await fetch(`${url}/api/v1/user/company`, {
      headers: { authorization: `Basic ${btoa('sandbox-client:sandbox-secret')}` },
    })
    expect(company.status).toBe(200)
    // /docs and every file its page loads, from the package alone (no swagger-ui-dist installed).
    const docs = await (await fetch(`${url}/docs`)).text()
    const assets = [...docs.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBeGreaterThanOrEqual(3)
    for (const asset of assets) {
      const res = await fetch(url + asset)
      // Swagger UI's files are large; the page's own script and style are a few dozen.
      const min = asset.includes('swagger-ui') ? 1000 : 10
      expect([asset, res.status, (await res.arrayBuffer()).byteLength > min]).toEqual([
        asset,
        200,
        true,
      ])
    }
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('runs an embedded sandbox that leaves nothing behind: the script exits by itself', async () => {
    writeFileSync(
      join(app, 'embedded.mjs'),
      `import { startSandbox } from 'pix-sandbox'
const sb = await startSandbox({ settings: { charge_ttl_seconds: 60 } })
const res = await fetch(sb.baseUrl + '/hub/transactions/in', {
  method: 'POST', headers: { authorization: sb.credentials.main.authorization, 'content-type': 'application/json' }, body: '{"amount":1000}' })
const charge = await res.json()
const paid = await sb.control.charges.pay(charge.transaction_id)
const tenant = await sb.tenant({ balance: 500 })
const company = await fetch(tenant.baseUrl + '/user/company', { headers: { authorization: tenant.authorization } })
await sb.reset()
await sb.close()
console.log(JSON.stringify({ created: res.status, paid: paid.status, tenant: company.status }))
`,
    )
    const r = await exec('node', ['embedded.mjs'], app)
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ created: 200, paid: 'paid', tenant: 200 })
  })

  it('publishes types: a consumer typechecks against them, and a wrong call does not', async () => {
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { connectSandbox, startSandbox, type Sandbox, type Tenant } from 'pix-sandbox'
export async function use(): Promise<number> {
  const sb: Sandbox = await startSandbox({ seed: 'x', settings: { charge_ttl_seconds: 60 } })
  const t: Tenant = await sb.tenant({ balance: 100 })
  await t.control.charges.pay('id')
  await connectSandbox(sb.url, sb.adminToken).transfers.settle('id', 'failed')
  // @ts-expect-error: a settle outcome is success or failed
  await sb.control.transfers.settle('id', 'maybe')
  // @ts-expect-error: an unknown setting
  await startSandbox({ settings: { charge_ttl: 60 } })
  return sb.control.requests.count({ path: '/api/v1/hub/transactions/in' })
}
`,
    )
    writeFileSync(
      join(app, 'tsconfig.consumer.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          types: [],
          lib: ['ES2022', 'DOM'],
        },
        files: ['consumer.ts'],
      }),
    )
    const tsc = await exec(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.consumer.json'],
      app,
    )
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.code).toBe(0)
  }) // tsc over the published types: tens of seconds on a loaded machine
})

describeOutside(async () => {
  expect((await install).code).toBe(0)
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  return { dir: app, spec: manifest.devDependencies['pix-sandbox'] }
}, INSTALL_TIMEOUT)
