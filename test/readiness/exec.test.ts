// `pix-sandbox exec -- COMMAND` from the sources, as CI runs it: the environment COMMAND gets,
// exit codes exactly as docs/READINESS.md says (COMMAND's if it failed, else the gate's, else 0; 127/126 when it
// cannot run; 2 for bad usage), SIGINT and SIGTERM forwarded, nothing left running afterwards
// (even when COMMAND is killed, and what left its process group), the summary on stderr, the JSON
// report and the JUnit file.
import { execFile, spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'
import { wellFormedXml } from './xml.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSX = import.meta.resolve('tsx')
const CLI = [process.execPath, '--import', TSX, join(ROOT, 'src/cli.ts')]
const dir = mkdtempSync(join(tmpdir(), 'pix-exec-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

function cli(args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      CLI[0]!,
      [...CLI.slice(1), ...args],
      { cwd: dir, timeout: HANG_MS },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })
}

/** A node script as COMMAND: `node -e <code>`, run with the environment exec gives it. */
const node = (code: string) => [process.execPath, '-e', code]
/** A call of the contract from COMMAND, with the credentials exec gave it. */
const call = (path: string, init = '{}') =>
  `fetch(process.env.PIX_BASE_URL + '${path}', Object.assign({ headers: { authorization: 'Basic ' + Buffer.from(process.env.PIX_CLIENT_ID + ':' + process.env.PIX_CLIENT_SECRET).toString('base64'), accept: 'application/json', 'content-type': 'application/json' } }, ${init}))`
/** Running: it exists and is not a zombie (exited, waiting for its new parent to reap it). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    // Gone since kill(0) (reaped: read after an existsSync, this failed a CI run), or no /proc here.
    return !existsSync('/proc/self/stat')
  }
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
}
const waitFor = async (file: string) => {
  for (
    const until = Date.now() + HANG_MS;
    !existsSync(file) || readFileSync(file, 'utf8').trim() === '';
  ) {
    if (Date.now() > until) throw new Error(`${file} never appeared`)
    await new Promise((r) => setTimeout(r, 20))
  }
  return Number(readFileSync(file, 'utf8').trim())
}

describe('exec: what COMMAND gets', () => {
  it("runs COMMAND with the sandbox's address, admin token and main credentials, which work", async () => {
    const out = join(dir, 'env.json')
    const script = `(async () => {
      const e = process.env
      const company = await ${call('/user/company')}
      const whoami = await fetch(e.PIX_SANDBOX_URL + '/_sandbox/whoami', { headers: { authorization: 'Bearer ' + e.PIX_SANDBOX_ADMIN_TOKEN } })
      require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ url: e.PIX_SANDBOX_URL, base: e.PIX_BASE_URL, id: e.PIX_CLIENT_ID, secret: e.PIX_CLIENT_SECRET, company: company.status, whoami: whoami.status, token: e.PIX_SANDBOX_ADMIN_TOKEN.length, run: e.PIX_SANDBOX_EXEC_ID }))
    })()`
    const r = await cli(['exec', '--', ...node(script)])
    expect(r.code).toBe(0)
    const env = JSON.parse(readFileSync(out, 'utf8'))
    expect(env.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(env.base).toBe(`${env.url}/api/v1`)
    expect([env.id, env.secret, env.company, env.whoami]).toEqual([
      'sandbox-client',
      'sandbox-secret',
      200,
      200,
    ])
    expect(env.token).toBeGreaterThanOrEqual(16)
    // The mark that finds what leaves COMMAND's group: one per run.
    expect(env.run).toMatch(/^[0-9a-f]{32}$/)
    expect(r.stderr).toContain('pix-sandbox readiness: 1 of 32 behaviours met (3%), no findings')
    expect(r.stderr).toContain('charge.created')
    expect(r.stdout).toBe('')
  })
})

describe.skipIf(!existsSync('/usr/bin/script'))("exec: COMMAND's colours", () => {
  /** exec, printing COMMAND's FORCE_COLOR, with stdout on a terminal (script(1)'s) or a pipe. */
  const forceColour = (terminal: boolean, chosen: Record<string, string> = {}) => {
    const { FORCE_COLOR: _f, NO_COLOR: _n, ...env } = process.env
    const argv = [
      ...CLI,
      'exec',
      '--',
      ...node('console.log("FORCE_COLOR=" + process.env.FORCE_COLOR)'),
    ]
    const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
    const [file, args] = terminal
      ? ['script', ['-qec', quoted, '/dev/null']]
      : [argv[0]!, argv.slice(1)]
    return new Promise<string>((resolve, reject) =>
      execFile(
        file,
        args,
        { cwd: dir, env: { ...env, ...chosen }, timeout: HANG_MS },
        (err, stdout) =>
          err ? reject(err) : resolve(/FORCE_COLOR=(\S*)/.exec(stdout)?.[1] ?? 'no output'),
      ),
    )
  }

  it('tells COMMAND to colour (FORCE_COLOR=1) where exec writes to a terminal, not to a pipe', async () => {
    expect(await forceColour(true)).toBe('1')
    expect(await forceColour(false)).toBe('undefined')
  })

  it('leaves the choice to a user who set NO_COLOR or FORCE_COLOR', async () => {
    expect(await forceColour(true, { NO_COLOR: '1' })).toBe('undefined')
    expect(await forceColour(true, { FORCE_COLOR: '0' })).toBe('0')
  })
})

describe('exec: exit codes', () => {
  it("passes COMMAND's own failure on, whatever the gate", async () => {
    const r = await cli(['exec', '--min-coverage', '100', '--', ...node('process.exit(3)')])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('Result: exit 3')
  })

  it('is 1 under --min-coverage (compared exactly), 0 at it', async () => {
    const oneCall = node(`${call('/user/company')}.then(() => {})`)
    // 1 of 32 met is 3.125%.
    expect((await cli(['exec', '--min-coverage', '3.125', '--', ...oneCall])).code).toBe(0)
    const under = await cli(['exec', '--min-coverage', '3.2', '--', ...oneCall])
    expect(under.code).toBe(1)
    expect(under.stderr).toContain('Result: exit 1: coverage 3% is under --min-coverage 3.2')
  })

  it('is 1 for a finding at or above --fail-on (default error), 0 below or with never', async () => {
    const production = node(
      `fetch(process.env.PIX_BASE_URL + '/user/company', { headers: { authorization: 'Basic ' + Buffer.from('production-client:production-secret').toString('base64') } }).then(() => {})`,
    )
    const failed = await cli(['exec', '--', ...production])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(
      /error\s+production_credentials\s+x1\s+GET \/api\/v1\/user\/company \(\d{4}-\d\d-\d\dT[\d:.]+Z wall clock\): production keys/,
    )
    expect(failed.stderr).toContain(
      'Result: exit 1: 1 finding at or above --fail-on error: production_credentials',
    )
    expect((await cli(['exec', '--fail-on', 'never', '--', ...production])).code).toBe(0)
    // An info finding (no accept header) is below warning.
    const info = node(
      `require('http').get(process.env.PIX_BASE_URL + '/user/company', { auth: 'sandbox-client:sandbox-secret' }, (res) => res.resume())`,
    )
    const below = await cli(['exec', '--fail-on', 'warning', '--', ...info])
    expect([below.code, below.stderr]).toEqual([0, expect.stringMatching(/info\s+missing_accept/)])
  })

  it('is 127 for a command that does not exist, 126 for one that cannot run: a clear message, no stack', async () => {
    const missing = await cli(['exec', '--', 'no-such-command-4f2a', '--flag'])
    expect([missing.code, missing.stderr]).toEqual([
      127,
      'pix-sandbox exec: no-such-command-4f2a: command not found\n',
    ])
    const file = join(dir, 'not-executable.sh')
    writeFileSync(file, 'echo hi\n')
    chmodSync(file, 0o644)
    const refused = await cli(['exec', '--', file])
    expect([refused.code, refused.stderr]).toEqual([
      126,
      `pix-sandbox exec: ${file}: permission denied (not executable)\n`,
    ])
  })

  it.each([
    [['exec', 'true'], /put -- before COMMAND: pix-sandbox exec \[flags\] -- true/],
    [['exec'], /exec needs -- COMMAND/],
    [['exec', '--'], /exec needs a COMMAND after --/],
    [['exec', '--bogus', '--', 'true'], /unknown option '--bogus'/],
    [['exec', '--min-coverage', '101', '--', 'true'], /must be a number from 0 to 100/],
    [['exec', '--min-coverage', '-1', '--', 'true'], /must be a number from 0 to 100/],
    [['exec', '--min-coverage', 'lots', '--', 'true'], /must be a number from 0 to 100/],
    [['exec', '--fail-on', 'fatal', '--', 'true'], /Allowed choices are error, warning, never/],
    [['exec', '--port', '70000', '--', 'true'], /--port: Too big/],
  ])('%j is a usage error: exit 2 with usage', async (args, message) => {
    const r = await cli(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(
      /\nUsage: pix-sandbox exec \[server flags\] .* -- COMMAND \[ARGS...\]\n\(run pix-sandbox exec --help for every flag\)\n$/,
    )
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('exec: a COMMAND that fails before its first call', () => {
  // A build that does not compile, as mvn says it: the cause on stdout, then the exit.
  const failedBuild = node(
    `console.log('[INFO] building'); for (let i = 1; i <= 20; i++) console.log('[ERROR] line ' + i); console.error('\\u001b[31m[ERROR] cannot find symbol: PixClient\\u001b[0m'); process.exit(1)`,
  )

  it('says first that it failed and shows its last lines, then the checklist; its output still passes through', async () => {
    const r = await cli(['exec', '--', ...failedBuild])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('[INFO] building\n[ERROR] line 1\n')
    const said = r.stderr.indexOf('pix-sandbox exec: ')
    const summary = r.stderr.indexOf('pix-sandbox readiness: 0 of 32')
    expect([said >= 0, summary > said]).toEqual([true, true])
    const lines = r.stderr.slice(said, summary).split('\n')
    expect(lines[0]).toMatch(/exited 1 before its first call to the sandbox; its last lines:$/)
    // The last 15 non-blank lines, colours taken out: the 14 last of stdout, then the stderr one.
    expect(lines.slice(1, 17)).toEqual([
      ...Array.from({ length: 14 }, (_, i) => `  [ERROR] line ${i + 7}`),
      '  [ERROR] cannot find symbol: PixClient',
      '',
    ])
    expect(r.stderr).toContain('Result: exit 1')
  })

  it('says nothing first when COMMAND made a call before it failed, or passed', async () => {
    const failed = await cli([
      'exec',
      '--',
      ...node(`${call('/user/company')}.then(() => process.exit(1))`),
    ])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/^pix-sandbox readiness: 1 of 32/m)
    expect(failed.stderr).not.toContain('before its first call')
    const passed = await cli(['exec', '--', ...node("console.log('no calls')")])
    expect(passed.code).toBe(0)
    expect(passed.stderr).not.toContain('before its first call')
  })

  it('does not wait for a process that escaped the stop and holds its output open', async () => {
    const file = join(dir, 'escaped-holding-output')
    // An emptied environment and a session of its own: one of the two kinds that escape. It
    // sleeps past the test's bound (test/hang.ts), so an exec that waited for it fails however
    // slowly the machine starts the CLI.
    const r = await cli([
      'exec',
      '--',
      'sh',
      '-c',
      `env -i setsid sh -c 'echo $$ > ${file}; exec sleep 3600' & while [ ! -s ${file} ]; do sleep 0.01; done`,
    ])
    const escaped = Number(readFileSync(file, 'utf8'))
    try {
      expect(r.code).toBe(0)
      expect(r.stderr).toContain('pix-sandbox readiness: 0 of 32')
    } finally {
      process.kill(escaped, 'SIGKILL')
    }
  })
})

describe('exec: signals and clean-up', () => {
  /** Starts exec; resolves once COMMAND has written `ready` (its pid, or its child's). */
  function start(command: string[]) {
    const child = spawn(CLI[0]!, [...CLI.slice(1), 'exec', '--', ...command], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.stdout.resume()
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    )
    return { child, exited, stderr: () => stderr }
  }

  it('forwards SIGTERM to COMMAND and what it started; nothing is left running', async () => {
    const ready = join(dir, 'term-child')
    const exec = start(['sh', '-c', `sleep 300 & echo $! > ${ready}; wait`])
    const sleeper = await waitFor(ready)
    expect(alive(sleeper)).toBe(true)
    exec.child.kill('SIGTERM')
    expect(await exec.exited).toBe(143)
    expect(alive(sleeper)).toBe(false)
  })

  it.each([
    ['SIGINT', 'INT', 42],
    ['SIGHUP (a closed terminal)', 'HUP', 41],
  ] as const)('forwards %s to COMMAND, and exits with its code', async (_, signal, code) => {
    const ready = join(dir, `${signal}-ready`)
    const exec = start([
      'sh',
      '-c',
      `trap 'exit ${code}' ${signal}; echo $$ > ${ready}; while true; do sleep 0.05; done`,
    ])
    await waitFor(ready)
    exec.child.kill(`SIG${signal}`)
    expect(await exec.exited).toBe(code)
    expect(exec.stderr()).toContain(`Result: exit ${code}: sh exited ${code}`)
  })

  it('stops COMMAND and what it started when exec itself is killed with SIGKILL', async () => {
    const shell = join(dir, 'orphaned-sh')
    const kid = join(dir, 'orphaned-child')
    const exec = start(['sh', '-c', `sleep 300 & echo $! > ${kid}; echo $$ > ${shell}; wait`])
    const [sh, sleeper] = [await waitFor(shell), await waitFor(kid)]
    exec.child.kill('SIGKILL')
    await exec.exited
    for (const until = Date.now() + HANG_MS; (alive(sh) || alive(sleeper)) && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 25))
    expect([alive(sh), alive(sleeper)]).toEqual([false, false])
  })

  it('stops what COMMAND left running when it ends', async () => {
    const ready = join(dir, 'orphan')
    const exec = start(['sh', '-c', `(sleep 300 & echo $! > ${ready}); exit 0`])
    const orphan = await waitFor(ready)
    expect(await exec.exited).toBe(0)
    expect(alive(orphan)).toBe(false)
  })

  it('stops what COMMAND started when COMMAND itself is killed, and passes 128 + 9 on', async () => {
    const shell = join(dir, 'killed-sh')
    const kid = join(dir, 'killed-child')
    const exec = start(['sh', '-c', `sleep 300 & echo $! > ${kid}; echo $$ > ${shell}; wait`])
    const [sh, sleeper] = [await waitFor(shell), await waitFor(kid)]
    process.kill(sh, 'SIGKILL')
    expect(await exec.exited).toBe(137)
    expect(alive(sleeper)).toBe(false)
  })
})

// Linux only: elsewhere there is no /proc to find them in, and the group is all exec stops.
describe.skipIf(!existsSync('/proc/self/environ'))(
  "exec: what leaves COMMAND's process group",
  () => {
    /** Starts exec; resolves with its exit code. */
    function run(command: string[]) {
      const child = spawn(CLI[0]!, [...CLI.slice(1), 'exec', '--', ...command], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      child.stderr.resume()
      return {
        child,
        exited: new Promise<number | null>((resolve) =>
          child.once('exit', (code) => resolve(code)),
        ),
      }
    }
    /** Shell text: waits until `file` holds a pid (the escaped process wrote it once it had escaped). */
    const until = (file: string) => `while [ ! -s ${file} ]; do sleep 0.01; done`
    /** The escaped process: writes its own pid (after it escaped), then sleeps. */
    const sleeper = (file: string) => `sh -c 'echo $$ > ${file}; exec sleep 300'`
    const escapes: [string, (file: string) => string[]][] = [
      ['setsid, in a double fork', (f) => ['sh', '-c', `( setsid ${sleeper(f)} & ); ${until(f)}`]],
      [
        'a job of a shell with job control (set -m)',
        (f) => ['bash', '-c', `set -m; ${sleeper(f)} & ${until(f)}`],
      ],
      [
        'node, detached: true',
        (f) =>
          node(
            `const c = require('child_process').spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }); c.unref(); require('fs').writeFileSync(${JSON.stringify(f)}, String(c.pid))`,
          ),
      ],
      [
        'python, start_new_session=True',
        (f) => [
          'python3',
          '-c',
          `import subprocess; open(${JSON.stringify(f)}, 'w').write(str(subprocess.Popen(['sleep', '300'], start_new_session=True).pid))`,
        ],
      ],
    ]

    it.each(escapes)('stops what left it by %s when COMMAND ends', async (name, command) => {
      const file = join(dir, `escaped-${name.replace(/\W+/g, '-')}`)
      const exec = run(command(file))
      const escaped = await waitFor(file)
      expect(await exec.exited).toBe(0)
      expect(alive(escaped)).toBe(false)
    })

    it('stops what left it when exec itself is killed with SIGKILL', async () => {
      const file = join(dir, 'escaped-exec-killed')
      const shell = join(dir, 'escaped-exec-killed-sh')
      const exec = run(['sh', '-c', `( setsid ${sleeper(file)} & ); echo $$ > ${shell}; sleep 300`])
      const [escaped, sh] = [await waitFor(file), await waitFor(shell)]
      exec.child.kill('SIGKILL')
      await exec.exited
      for (
        const until = Date.now() + HANG_MS;
        (alive(sh) || alive(escaped)) && Date.now() < until;
      )
        await new Promise((r) => setTimeout(r, 25))
      expect([alive(sh), alive(escaped)]).toEqual([false, false])
    })
  },
)

describe('exec: reports', () => {
  it('writes the JSON report and a JUnit file with a test case per behaviour and per finding', async () => {
    const report = join(dir, 'out/readiness.json')
    const junit = join(dir, 'out/deeper/junit.xml')
    const script = `(async () => {
      await ${call('/hub/transactions/in', "{ method: 'POST', body: JSON.stringify({ amount: 1000 }) }")}
      await fetch(process.env.PIX_BASE_URL + '/user/company', { headers: { authorization: 'Basic ' + Buffer.from('production-client:production-secret').toString('base64') } })
    })()`
    const r = await cli([
      'exec',
      '--report',
      report,
      '--junit',
      junit,
      '--min-coverage',
      '50',
      '--',
      ...node(script),
    ])
    expect(r.code).toBe(1)
    const json = JSON.parse(readFileSync(report, 'utf8'))
    // charge.created, and company.unauthenticated (production keys are refused with a 401).
    expect(json.coverage).toEqual({ met: 2, total: 32, percent: 6 })
    expect(json.findings.map((f: { id: string }) => f.id)).toEqual(['production_credentials'])
    expect(json.run).toEqual({
      command_exit_code: 0,
      exit_code: 1,
      min_coverage: 50,
      fail_on: 'error',
      failures: [
        'coverage 6% is under --min-coverage 50',
        '1 finding at or above --fail-on error: production_credentials',
      ],
    })
    const xml = readFileSync(junit, 'utf8')
    expect(wellFormedXml(xml)).toEqual([])
    expect(xml).toMatch(
      /<testsuites name="pix-sandbox readiness" tests="49" failures="2" errors="0">/,
    )
    expect(xml.match(/<testcase /g)).toHaveLength(49)
    expect(xml).toContain(
      '<testcase classname="readiness.behaviours" name="charge.created" time="0"/>',
    )
    expect(xml).toMatch(
      /<testcase classname="readiness.behaviours" name="charge.invalid" time="0">\s*<skipped message="not met; how: POST \/api\/v1\/hub\/transactions\/in \{&quot;amount&quot;: 0\}/,
    )
    expect(xml).toMatch(
      /<testcase classname="readiness.findings" name="production_credentials \(error\)" time="0">\s*<failure message="seen 1 time: GET \/api\/v1\/user\/company/,
    )
    expect(xml).toContain(
      '<testcase classname="readiness.findings" name="lenient_amount (warning)" time="0"/>',
    )
    expect(xml).toMatch(/name="coverage &gt;= 50%" time="0">\s*<failure/)
  })

  it('says the code it exits with: a report it cannot write turns a pass into exit 1, in the Result line too', async () => {
    const r = await cli(['exec', '--report', dir, '--', 'true'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      new RegExp(
        `Result: exit 1: cannot write ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: EISDIR`,
      ),
    )
    expect(r.stderr).not.toMatch(/Result: exit 0/)
  })

  it('writes the reports for a COMMAND that could not start, with its 127', async () => {
    const report = join(dir, 'missing/readiness.json')
    const junit = join(dir, 'missing/junit.xml')
    const r = await cli([
      'exec',
      '--report',
      report,
      '--junit',
      junit,
      '--',
      'no-such-command-9c1e',
    ])
    expect([r.code, r.stderr]).toEqual([
      127,
      'pix-sandbox exec: no-such-command-9c1e: command not found\n',
    ])
    expect(JSON.parse(readFileSync(report, 'utf8')).run).toMatchObject({
      command_exit_code: 127,
      exit_code: 127,
      failures: ['no-such-command-9c1e: command not found'],
    })
    expect(wellFormedXml(readFileSync(junit, 'utf8'))).toEqual([])
  })
})

describe('exec: what the run saw, whole', () => {
  it("lets a payout a fault's delay holds finish before the verdict: re-sent after its client gave up, it paid twice", async () => {
    const report = join(dir, 'in-flight/readiness.json')
    // The client gives up once the sandbox holds its payout (the fault taken: its own timeout),
    // sends it again at once and ends; the sandbox still holds the first for seconds.
    const script = `(async () => {
      const e = process.env
      const faults = (init) => fetch(e.PIX_SANDBOX_URL + '/_sandbox/faults', Object.assign({ headers: { authorization: 'Bearer ' + e.PIX_SANDBOX_ADMIN_TOKEN, 'content-type': 'application/json' } }, init))
      await faults({ method: 'POST', body: JSON.stringify({ operation: 'transfer', delay_ms: 3000, times: 1 }) })
      const payout = (signal) => ${call('/hub/transactions/out', "{ method: 'POST', body: JSON.stringify({ amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL', description: 'Pedido 1' }), signal }")}
      const gaveUp = new AbortController()
      const first = payout(gaveUp.signal).catch(() => {})
      while ((await (await faults({})).json()).data.length) await new Promise((r) => setTimeout(r, 10))
      gaveUp.abort()
      await first
      process.exit((await payout()).status === 200 ? 0 : 5)
    })()`
    const r = await cli(['exec', '--report', report, '--', ...node(script)])
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/error\s+paid_twice\s+x1/)])
    expect(r.stderr).toContain('Result: exit 1: 1 finding at or above --fail-on error: paid_twice')
    expect(r.stderr).not.toContain('Not waited for')
    const json = JSON.parse(readFileSync(report, 'utf8'))
    expect(json.findings.map((f: { id: string }) => f.id)).toEqual(['paid_twice'])
    expect(json.in_flight).toEqual({ calls: 0, wait_ms: 0 })
  })

  it('keeps what a tenant did after the suite deleted it (a tidy cleanup)', async () => {
    const report = join(dir, 'deleted/readiness.json')
    const script = `(async () => {
      const e = process.env
      const admin = (method, path, body) => fetch(e.PIX_SANDBOX_URL + '/_sandbox' + path, { method, headers: { authorization: 'Bearer ' + e.PIX_SANDBOX_ADMIN_TOKEN, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
      const t = await (await admin('POST', '/companies', { name: 'Loja Go', balance: 100000 })).json()
      require('fs').writeFileSync(${JSON.stringify(join(dir, 'deleted/tenant'))}, t.company_id)
      const res = await fetch(e.PIX_BASE_URL + '/hub/transactions/in', { method: 'POST', headers: { authorization: 'Basic ' + t.token, accept: 'application/json', 'content-type': 'application/json' }, body: '{"amount": 1000.0}' })
      if (res.status !== 200) process.exit(5)
      process.exit((await admin('DELETE', '/companies/' + t.company_id)).status === 204 ? 0 : 6)
    })()`
    mkdirSync(join(dir, 'deleted'), { recursive: true })
    const r = await cli(['exec', '--fail-on', 'warning', '--report', report, '--', ...node(script)])
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/warning\s+lenient_amount\s+x1/)])
    const json = JSON.parse(readFileSync(report, 'utf8'))
    expect(json.coverage.met).toBe(1)
    expect(json.findings).toEqual([
      expect.objectContaining({
        id: 'lenient_amount',
        example: expect.objectContaining({
          company_id: readFileSync(join(dir, 'deleted/tenant'), 'utf8'),
        }),
      }),
    ])
  })
})
