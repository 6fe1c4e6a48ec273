// The `pix-sandbox` command from the sources: flags mirror the environment and win over it, bad
// input is a usage error (exit 2), scenario files are checked with located errors.
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// tsx is resolved from here: the commands run in a temp folder that has no node_modules.
const TSX = import.meta.resolve('tsx')
const CLI = [process.execPath, '--import', TSX, join(ROOT, 'src/cli.ts')] as const
const dir = mkdtempSync(join(tmpdir(), 'pix-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      CLI[0],
      [...CLI.slice(1), ...args],
      { cwd: dir, env: { ...process.env, ...env }, timeout: HANG_MS },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })
}

/** Starts the server; resolves with its URL and everything it printed, once it is listening. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(CLI[0], [...CLI.slice(1), ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stderr.on('data', (d) => (out += d))
  const ready = new Promise<{ url: string; out: () => string }>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ url: m[1]!, out: () => out })
    })
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)))
  })
  const stop = () =>
    new Promise((resolve) =>
      child.exitCode !== null
        ? resolve(child.exitCode)
        : (child.once('exit', resolve), child.kill('SIGTERM')),
    )
  return { ready, stop }
}

describe('pix-sandbox (serve)', () => {
  it('flags win over the variables they mirror; no file is written with --db :memory:', async () => {
    const s = serve(
      [
        '--port',
        '0',
        '--db',
        ':memory:',
        '--log-level',
        'warn',
        '--admin-token',
        'from-the-flag-0123456789',
        '--scenario',
        'many-users',
      ],
      {
        LOG_LEVEL: 'loud', // invalid, but overridden
        SANDBOX_ADMIN_TOKEN: 'from-the-variable-0123456789',
        SCENARIO: 'nope',
      },
    )
    try {
      const { url } = await s.ready
      const health = (await (await fetch(`${url}/_sandbox/health`)).json()) as { scenario: string }
      expect(health.scenario).toBe('many-users')
      const byFlag = await fetch(`${url}/_sandbox/clock`, {
        headers: { authorization: 'Bearer from-the-flag-0123456789' },
      })
      expect(byFlag.status).toBe(200)
      const byVariable = await fetch(`${url}/_sandbox/clock`, {
        headers: { authorization: 'Bearer from-the-variable-0123456789' },
      })
      expect(byVariable.status).toBe(401)
    } finally {
      expect(await s.stop()).toBe(0)
    }
    expect(readdirSync(dir)).toEqual([])
  })

  it('reads the environment where no flag is given', async () => {
    const s = serve([], {
      PORT: '0',
      DATABASE: ':memory:',
      SCENARIO: 'short-lived-charges',
      LOG_LEVEL: 'warn',
    })
    try {
      const { url, out } = await s.ready
      expect(
        ((await (await fetch(`${url}/_sandbox/health`)).json()) as { scenario: string }).scenario,
      ).toBe('short-lived-charges')
      expect(out()).toContain('store        :memory:')
    } finally {
      await s.stop()
    }
  })

  it('refuses bad values with the configuration message, naming the flag, and exit 2', async () => {
    const [r, startTime, fromEnv] = await Promise.all([
      cli(['--port', '99999', '--public-url', 'ftp://x']),
      cli(['--start-time', 'tomorrow']),
      cli([], { LOG_LEVEL: 'loud' }),
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('invalid configuration:')
    expect(r.stderr).toContain('  --port: ')
    expect(r.stderr).toContain('  --public-url: must be an http(s) URL')
    expect(startTime.code).toBe(2)
    expect(startTime.stderr).toContain(
      '  --start-time: "tomorrow" is not an ISO 8601 instant with its time zone',
    )
    expect(fromEnv.code).toBe(2)
    expect(fromEnv.stderr).toContain('  LOG_LEVEL: ')
  })

  it('refuses unknown flags, extra arguments and missing values with exit 2', async () => {
    const cases = [['--prot', '1'], ['serve'], ['--port']]
    const outcomes = await Promise.all(cases.map((args) => cli(args)))
    for (const [i, args] of cases.entries()) {
      const r = outcomes[i]!
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr, args.join(' ')).toMatch(/^error: /)
    }
  })

  it('prints help and the version with exit 0', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` })
    const help = await cli(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--scenarios-dir <dir>')
    expect(help.stdout).toContain('[SANDBOX_ADMIN_TOKEN]')
  })
})

describe('pix-sandbox scenario', () => {
  it('check: ok files pass; every problem of a bad file is printed with its file, path and line; exit 1', async () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      'settings:\n  charge_ttl_seconds: -1\ncompanies:\n  - id: acme\n    nmae: Acme\n',
    )
    writeFileSync(join(dir, 'broken.json'), '{"settings": ')
    const ok = await cli([
      'scenario',
      'check',
      join(ROOT, 'scenarios/default.yaml'),
      join(ROOT, 'scenarios/many-users.yaml'),
    ])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('default.yaml: ok')
    const bad = await cli([
      'scenario',
      'check',
      join(ROOT, 'scenarios/default.yaml'),
      'bad.yaml',
      'broken.json',
      'missing.yaml',
    ])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^bad\.yaml: settings\.charge_ttl_seconds \(line 2\): /m)
    expect(bad.stderr).toMatch(/^bad\.yaml: companies\[0\] \(line 4\): unknown field\(s\) "nmae"/m)
    expect(bad.stderr).toMatch(/^broken\.json: line \d+: /m)
    expect(bad.stderr).toMatch(/^missing\.yaml: ENOENT/m)
    expect(bad.stderr).toContain('3 of 4 file(s) invalid')
  })

  // Issue 27, defect 7: a file from elsewhere must not command the terminal through what is quoted from it.
  it('shows the control characters a scenario file holds escaped, when checking it and when starting with it', async () => {
    writeFileSync(
      join(dir, 'hostile.yaml'),
      'companies:\n  - id: acme\n    "n\u001b]0;TITLE\u0007\u202eevil\u009b2J": 1\n',
    )
    const checked = await cli(['scenario', 'check', 'hostile.yaml'])
    const started = await cli([
      '--scenarios-dir',
      dir,
      '--scenario',
      'hostile',
      '--db',
      ':memory:',
      '--port',
      '0',
    ])
    for (const r of [checked, started]) {
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('unknown field(s) "n\\u001b]0;TITLE\\u0007\\u202eevil\\u009b2J"')
      expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    }
  })

  it('check without a file is a usage error', async () => {
    expect((await cli(['scenario', 'check'])).code).toBe(2)
  })

  it('schema prints the committed JSON Schema', async () => {
    const r = await cli(['scenario', 'schema'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(readFileSync(join(ROOT, 'scenarios/scenario.schema.json'), 'utf8')),
    )
  })
})

describe('pix-sandbox probe', () => {
  it('is a subcommand: its help names the target; a plain-http remote target is refused with exit 2 before any request', async () => {
    const help = await cli(['probe', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: pix-sandbox probe [options] <target-base-url>')
    const refused = await cli(['probe', 'http://example.com/api/v1'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('refusing plain http to example.com')
  })
})
