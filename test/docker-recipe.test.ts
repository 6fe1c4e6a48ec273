// The Dockerfile's recipe, repeated on the host. CI has no Docker engine, so instead of building
// the image this test reads the Dockerfile and follows it: each stage is a temp directory standing
// for the image's root file system, COPY copies from a build context (the repository's files less
// .dockerignore) or from an earlier stage, RUN runs in the stage's WORKDIR with the stage's ENV,
// and the last stage's CMD is started with its ENV and the variables of the header's `docker run`.
// Then the container's promises are checked: HEALTHCHECK passes (ALLOWED_HOSTS set, the Host guard
// on), the API answers, no dev dependency ships, and STOPSIGNAL stops it with 0.
// An instruction this test does not understand fails it, rather than being skipped unseen.
import { spawn, type ChildProcess } from 'node:child_process'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { get as httpGet } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, SERVER_ARGS } from '../bench/processes.js'
import {
  commandOf,
  flagsOf,
  noVariables,
  parseEnv,
  parseStages,
  recipeRun,
  words,
  type Stage,
} from './dockerfile.js'
import { HANG_MS } from './hang.js'
import { AUTH, type Reply, request } from './harness.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
// npm ci compiles better-sqlite3 from source: minutes on a quiet machine, past 8 minutes at a load
// average of 12. A bound about a hang (test/hang.ts) for each of the build's long steps.
const BUILD_TIMEOUT = 3 * HANG_MS

// ---------------------------------------------------------------------------------------------
// The build context: the repository's files (as a clean clone has them, plus new files that are
// not ignored yet) less what .dockerignore excludes.

function dockerignoreMatcher(text: string): (path: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!')
      const pattern = posix.normalize((negate ? l.slice(1) : l).trim()).replace(/^\/+|\/+$/g, '')
      let re = ''
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern[i]!
        if (pattern.startsWith('**/', i)) (re += '(?:.*/)?'), (i += 2)
        else if (pattern.startsWith('**', i)) (re += '.*'), (i += 1)
        else if (c === '*') re += '[^/]*'
        else if (c === '?') re += '[^/]'
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
      }
      return { negate, re: new RegExp(`^${re}$`) }
    })
  // A path is excluded when a rule matches it or one of its parent directories; the last rule wins.
  return (path) => {
    const parts = path.split('/')
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'))
    let excluded = false
    for (const r of rules) if (prefixes.some((p) => r.re.test(p))) excluded = !r.negate
    return excluded
  }
}

async function makeContext(dir: string): Promise<void> {
  const git = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
  })
  if (git.code !== 0)
    throw new Error(`git ls-files failed (the test needs the git work tree):\n${git.output}`)
  const ignored = existsSync(join(ROOT, '.dockerignore'))
    ? dockerignoreMatcher(readFileSync(join(ROOT, '.dockerignore'), 'utf8'))
    : () => false
  for (const file of git.stdout.split('\0')) {
    // --cached also lists files deleted in the work tree but not yet committed.
    if (file === '' || ignored(file) || !existsSync(join(ROOT, file))) continue
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    cpSync(join(ROOT, file), join(dir, file), { verbatimSymlinks: true })
  }
}

// ---------------------------------------------------------------------------------------------
// Following the stages

interface BuiltStage {
  name: string
  root: string
  workdir: string
  env: Record<string, string>
  user: string | undefined
  volumes: string[]
  cmd: string[] | undefined
  cmdExec: boolean
  healthcheck: { argv: string[]; timeoutMs: number; retries: number } | undefined
  stopSignal: NodeJS.Signals
  /** RUN commands not run on the host, with the reason. */
  skipped: { command: string; reason: string }[]
}

/**
 * RUN commands that set up the image's operating system rather than the app, so not run on the
 * host: installing system packages (apt-get, apk) — CI's machine already has python3, make and
 * g++ — and making directories and owners outside the WORKDIR for the image's user (the host run
 * points DATABASE at a temp directory instead; the test checks such steps below).
 */
function systemStep(command: string, workdir: string): string | undefined {
  if (/\b(apt-get|apt|apk)\b/.test(command))
    return 'installs system packages, which the host already has'
  const outside = (a: string) =>
    a.startsWith('/') && a !== workdir && !a.startsWith(workdir.replace(/\/?$/, '/'))
  const parts = command.split(/&&|;/).map((p) => words(p.trim()))
  const fsSetup = parts.every(
    ([cmd, ...args]) =>
      ['mkdir', 'chown', 'chmod', 'install'].includes(cmd ?? '') &&
      args.filter((a) => a.startsWith('/')).length > 0 &&
      args.filter((a) => a.startsWith('/')).every(outside),
  )
  if (fsSetup) return "prepares the image's file system outside the app"
  return undefined
}

function hostEnv(): Record<string, string> {
  // The variables npm and vitest set for this test run are not the machine's, and a docker build
  // would not see them: NODE_ENV=test, vitest's MODE, PROD, ..., and above all the npm_config_*
  // of an enclosing `npm test` (its local_prefix would point a nested npm at the repository).
  const added =
    /^(npm_.*|VITEST.*|NODE_ENV|TEST|MODE|DEV|PROD|SSR|BASE_URL|FORCE_TTY|INIT_CWD|NODE|COLOR|EDITOR)$/
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !added.test(e[0]),
    ),
  )
}

async function buildStages(
  stages: Stage[],
  context: string,
  tmp: string,
  log: string[],
): Promise<BuiltStage[]> {
  const built: BuiltStage[] = []
  for (const [index, stage] of stages.entries()) {
    const from = built.find((b) => b.name === stage.base)
    const root = join(tmp, `stage-${index}-${stage.name}`)
    mkdirSync(root, { recursive: true })
    if (from) cpSync(from.root, root, { recursive: true, verbatimSymlinks: true })
    const s: BuiltStage = from
      ? { ...structuredClone({ ...from, root: '' }), name: stage.name, root }
      : {
          name: stage.name,
          root,
          workdir: '/',
          env: {},
          user: undefined,
          volumes: [],
          cmd: undefined,
          cmdExec: false,
          healthcheck: undefined,
          stopSignal: 'SIGTERM',
          skipped: [],
        }
    const inImage = (p: string) => join(root, posix.resolve(s.workdir, p))

    for (const ins of stage.instructions) {
      const where = `${stage.name}, line ${ins.line}`
      switch (ins.keyword) {
        case 'WORKDIR':
          noVariables(ins)
          s.workdir = posix.resolve(s.workdir, ins.args)
          mkdirSync(inImage('.'), { recursive: true })
          break
        case 'ENV':
          Object.assign(s.env, parseEnv(ins))
          break
        case 'COPY': {
          noVariables(ins)
          const { flags, rest } = flagsOf(ins.args)
          const unknown = Object.keys(flags).filter(
            (f) => !['from', 'chown', 'chmod', 'link'].includes(f),
          )
          if (unknown.length)
            throw new Error(`${where}: COPY --${unknown.join(', --')} is not understood`)
          const paths = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : words(rest)
          const dest = paths.pop()
          if (!dest || paths.length === 0)
            throw new Error(`${where}: COPY needs a source and a destination`)
          let srcRoot = context
          if (flags.from !== undefined) {
            const other = built.find((b) => b.name === flags.from)
            if (!other)
              throw new Error(`${where}: COPY --from=${flags.from} names no earlier stage`)
            srcRoot = other.root
          }
          // Sources are relative to the context, or to the root of the --from stage.
          const sources = paths.flatMap((p) => {
            const rel = posix.normalize('/' + p).slice(1)
            const base = posix.basename(rel)
            if (!/[*?[]/.test(base)) {
              if (!existsSync(join(srcRoot, rel)))
                throw new Error(`${where}: COPY source ${p} not found`)
              return [join(srcRoot, rel)]
            }
            const dir = join(srcRoot, posix.dirname(rel))
            const re = new RegExp(
              `^${base
                .replace(/[.+^${}()|\\]/g, '\\$&')
                .replace(/\*/g, '.*')
                .replace(/\?/g, '.')}$`,
            )
            const found = existsSync(dir)
              ? readdirSync(dir)
                  .filter((f) => re.test(f))
                  .map((f) => join(dir, f))
              : []
            if (found.length === 0) throw new Error(`${where}: COPY source ${p} matches nothing`)
            return found
          })
          const target = inImage(dest)
          const intoDir = dest.endsWith('/') || dest === '.' || sources.length > 1
          for (const src of sources) {
            if (lstatSync(src).isDirectory()) {
              // A directory's contents are copied, not the directory itself.
              cpSync(src, target, { recursive: true, verbatimSymlinks: true })
            } else {
              const to = intoDir ? join(target, posix.basename(src)) : target
              mkdirSync(dirname(to), { recursive: true })
              cpSync(src, to, { verbatimSymlinks: true })
            }
          }
          break
        }
        case 'RUN': {
          const reason = ins.args.startsWith('[') ? undefined : systemStep(ins.args, s.workdir)
          if (reason) {
            s.skipped.push({ command: ins.args, reason })
            log.push(`[${where}] skipped (${reason}): ${ins.args}`)
            break
          }
          const { argv } = commandOf(ins.args)
          log.push(`[${where}] RUN ${ins.args}`)
          const started = Date.now()
          const r = await run(argv[0]!, argv.slice(1), {
            cwd: inImage('.'),
            env: { ...hostEnv(), ...s.env },
          })
          log.push(`  exit ${r.code} after ${((Date.now() - started) / 1000).toFixed(1)} s`)
          if (r.code !== 0)
            throw new Error(`${where}: RUN ${ins.args} exited ${r.code}:\n${r.output.slice(-4000)}`)
          break
        }
        case 'CMD': {
          const c = commandOf(ins.args)
          s.cmd = c.argv
          s.cmdExec = c.exec
          break
        }
        case 'HEALTHCHECK': {
          const { flags, rest } = flagsOf(ins.args)
          if (/^NONE$/i.test(rest)) {
            s.healthcheck = undefined
            break
          }
          const m = /^CMD\s+(.*)$/is.exec(rest)
          if (!m) throw new Error(`${where}: cannot read HEALTHCHECK ${ins.args}`)
          s.healthcheck = {
            argv: commandOf(m[1]!).argv,
            timeoutMs: durationMs(flags.timeout ?? '30s'),
            retries: Number(flags.retries ?? 3),
          }
          break
        }
        case 'USER':
          s.user = ins.args
          break
        case 'VOLUME':
          s.volumes.push(
            ...(ins.args.startsWith('[') ? (JSON.parse(ins.args) as string[]) : words(ins.args)),
          )
          break
        case 'STOPSIGNAL':
          s.stopSignal = (/^\d+$/.test(ins.args) ? Number(ins.args) : ins.args) as NodeJS.Signals
          break
        case 'EXPOSE':
        case 'LABEL':
          break // metadata only
        default:
          throw new Error(
            `${where}: this test does not understand ${ins.keyword}; teach it before using it`,
          )
      }
    }
    built.push(s)
  }
  return built
}

function durationMs(d: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(d)
  if (!m) throw new Error(`cannot read duration ${d}`)
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h']
}

// ---------------------------------------------------------------------------------------------
// Processes

interface Ran {
  code: number | null
  stdout: string
  output: string
  /** Killed at `timeoutMs`. */
  timedOut: boolean
}

function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let output = ''
    child.stdout.on('data', (d: Buffer) => ((stdout += d), (output += d)))
    child.stderr.on('data', (d: Buffer) => (output += d))
    let timedOut = false
    const timer = opts.timeoutMs
      ? setTimeout(() => ((timedOut = true), child.kill('SIGKILL')), opts.timeoutMs)
      : undefined
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, output, timedOut })
    })
  })
}

function exited(
  child: ChildProcess,
  withinMs = HANG_MS,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode })
      return
    }
    const timer = setTimeout(
      () => reject(new Error(`still running ${withinMs} ms after the stop signal`)),
      withinMs,
    )
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
  })
}

// ---------------------------------------------------------------------------------------------

describe('the Dockerfile recipe, followed on the host', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  const stages = parseStages(dockerfile)
  const lockfile = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>
  }
  const version = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  ).version
  const tmp = mkdtempSync(join(tmpdir(), 'pix-docker-recipe-'))
  const log: string[] = []
  let image: BuiltStage
  let app: string
  let server: ChildProcess | undefined
  let serverOutput = ''

  beforeAll(async () => {
    const context = join(tmp, 'context')
    mkdirSync(context)
    await makeContext(context)
    const built = await buildStages(stages, context, tmp, log)
    image = built.at(-1)!
    app = join(image.root, image.workdir)
  }, BUILD_TIMEOUT)

  afterAll(async () => {
    // What was run and what was skipped, with timings, for whoever reads the CI log.
    console.info(`Dockerfile recipe on the host:\n${log.join('\n')}`)
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL')
      await exited(server, 5000).catch(() => undefined)
    }
    rmSync(tmp, { recursive: true, force: true })
  })

  it('has a build stage and a runtime stage that starts from the base image, not from the build', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    const last = stages.at(-1)!
    expect(stages.some((s) => s.name === last.base)).toBe(false)
  })

  it('ships no dev dependency in the runtime stage', () => {
    const modules = join(app, 'node_modules')
    expect(existsSync(join(modules, 'better-sqlite3'))).toBe(true)
    expect(existsSync(join(modules, 'vitest'))).toBe(false)
    expect(existsSync(join(modules, 'typescript'))).toBe(false)
    // Every package the lockfile marks dev-only (direct or not) is absent.
    const devOnly = Object.entries(lockfile.packages)
      .filter(([path, p]) => path !== '' && p.dev === true)
      .map(([path]) => path)
    expect(devOnly.length).toBeGreaterThan(0)
    expect(devOnly.filter((path) => existsSync(join(app, path)))).toEqual([])
    // Nor the sources: the image runs the compiled dist/.
    expect(existsSync(join(app, 'src'))).toBe(false)
  })

  it("makes each VOLUME the non-root USER's, in the file-system steps it skips on the host", () => {
    expect(image.user).toBe('node')
    expect(['root', '0']).not.toContain(image.user)
    expect(image.volumes.length).toBeGreaterThan(0)
    // The store is in a volume, so that state outlives the container.
    expect(image.volumes).toContain(posix.dirname(image.env.DATABASE ?? ''))
    const setup = image.skipped.map((s) => s.command).join(' && ')
    for (const v of image.volumes) {
      expect(setup).toMatch(new RegExp(`\\bmkdir\\b[^&;]*\\s${v}(\\s|$)`))
      expect(setup).toMatch(
        new RegExp(`\\bchown\\s+(-\\S+\\s+)*${image.user}(:\\S+)?\\s[^&;]*${v}(\\s|$)`),
      )
    }
  })

  it('runs CMD: HEALTHCHECK passes, the API answers, and the stop signal ends it with 0', async () => {
    // Exec form, so that node is PID 1 and receives the stop signal itself.
    expect(image.cmdExec, 'CMD is in exec form').toBe(true)
    expect(image.cmd, 'CMD starts the server as `npm start` does').toEqual(['node', ...SERVER_ARGS])
    expect(
      image.healthcheck?.timeoutMs,
      'the last stage has a HEALTHCHECK, with a 10 s timeout (node alone took over 3 s to start at a load of 12)',
    ).toBe(10_000)
    expect(image.healthcheck!.argv.join(' '), 'it asks the health endpoint').toContain(
      '/_sandbox/health',
    )

    // The container's environment: the image's ENV (over a PATH to find node) and the recipe's
    // `docker run -e`, where only the address and the store's path change: the image's /data does
    // not exist on the host.
    const envFor = (port: number, attempt = 1) => ({
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      ...image.env,
      ...recipeRun().env,
      HOST: '127.0.0.1',
      PORT: String(port),
      // A retry gets a new store: the failed start already loaded the scenario into the first.
      DATABASE: join(tmp, 'data', attempt === 1 ? 'pix-sandbox.db' : `pix-sandbox-${attempt}.db`),
    })
    const [cmd, ...args] = image.cmd!
    let env = envFor(0)
    let base = ''
    let health: Reply | undefined
    // A free port can be taken by another test between freePort() and the server's listen: then
    // the server says so and exits, and it is started again on another port.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      env = envFor(port, attempt)
      base = `http://127.0.0.1:${port}`
      serverOutput = ''
      const child = spawn(cmd!, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] })
      server = child
      child.stdout!.on('data', (d: Buffer) => (serverOutput += d))
      child.stderr!.on('data', (d: Buffer) => (serverOutput += d))
      // Until it answers or exits: a start takes seconds idle, minutes on a loaded machine.
      for (;;) {
        if (child.exitCode !== null) break
        health = await request(base, 'GET', '/_sandbox/health').catch(() => undefined)
        if (health?.status === 200) break
        await new Promise((r) => setTimeout(r, 100))
      }
      if (child.exitCode === null) break
      if (!serverOutput.includes('is already in use') || attempt === 3)
        throw new Error(`the server exited ${child.exitCode}:\n${serverOutput}`)
    }
    const child = server!
    expect(health!.body).toMatchObject({ status: 'ok', version, scenario: 'default' })
    expect(serverOutput).toMatch(/scenario +default \(default\), loaded into the new store/)
    // The image's ENV, named as the source of its settings.
    expect(serverOutput).toMatch(/store +\S+\/pix-sandbox\.db \(DATABASE\)/)

    const hc = image.healthcheck!
    const check = (timeoutMs?: number) =>
      run(hc.argv[0]!, hc.argv.slice(1), { cwd: app, env, timeoutMs })
    // As Docker runs it: healthy once a run passes within its timeout, `retries` tries. A node that
    // takes longer than the timeout to start measures this machine, not the image: when every
    // try was killed for its time, one more without a limit must pass (and says so).
    const tries: Ran[] = []
    while (tries.length < hc.retries && tries.at(-1)?.code !== 0)
      tries.push(await check(hc.timeoutMs))
    if (tries.at(-1)!.code !== 0 && tries.every((t) => t.timedOut)) {
      console.info(
        `HEALTHCHECK: ${tries.length} tries past ${hc.timeoutMs} ms here; once more without a limit`,
      )
      tries.push(await check())
    }
    const healthy = tries.at(-1)!
    expect(healthy.code, `HEALTHCHECK output: ${healthy.output}`).toBe(0)
    expect(
      recipeRun().env.ALLOWED_HOSTS,
      "the recipe's docker run sets ALLOWED_HOSTS",
    ).toBeDefined()
    // Through node:http: fetch sends the URL's own Host whatever the headers say.
    const rebound = await new Promise<number>((resolve, reject) =>
      httpGet(
        `${base}/_sandbox/health`,
        { headers: { host: 'rebind.attacker.example' } },
        (res) => (res.resume(), resolve(res.statusCode!)),
      ).on('error', reject),
    )
    expect(rebound).toBe(421)

    const charge = await request(base, 'POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 1000 },
    })
    expect(charge.status, charge.text).toBe(200)
    expect(charge.body).toMatchObject({ status: 'pending' })
    expect(charge.body.transaction_id).toEqual(expect.any(String))
    expect(charge.body.qr_code).toEqual(expect.any(String))
    expect(existsSync(env.DATABASE)).toBe(true)
    // /docs and every file its page loads, from what the image ships (no dev dependency).
    const docs = await request(base, 'GET', '/docs')
    const assets = [...docs.text.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map(
      (m) => m[1]!,
    )
    expect(assets.length).toBeGreaterThanOrEqual(3)
    for (const asset of assets)
      expect([asset, (await request(base, 'GET', asset)).status]).toEqual([asset, 200])

    // `docker stop` sends STOPSIGNAL and kills after 10 s: the server ends on its own, exit 0 (in
    // well under a second idle; how long is this machine's, so it is reported, not asserted).
    const stopping = performance.now()
    child.kill(image.stopSignal)
    const end = await exited(child)
    console.info(`stopped by ${image.stopSignal} in ${Math.round(performance.now() - stopping)} ms`)
    expect(end, serverOutput).toEqual({ code: 0, signal: null })

    // And the check is not vacuous: with the server gone it fails.
    expect((await check(hc.timeoutMs)).code).not.toBe(0)
  })
})
