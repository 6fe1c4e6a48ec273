// The reference: reference_app.py under uvicorn, in a virtual environment made once and kept
// under node_modules/.cache (keyed by the pinned requirements, so a change of pins makes a new
// one). In CI it must be there: a missing Python is a failure, not a skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HANG_MS } from '../hang.js'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, '../..')
const REQUIREMENTS = join(HERE, 'requirements.txt')

export interface Reference {
  port: number
  close(): Promise<void>
}

/** The venv's python, made if needed; a string saying why not when it cannot be made. */
export function referencePython(): { python: string } | { missing: string } {
  const pins = readFileSync(REQUIREMENTS, 'utf8')
  const key = createHash('sha256').update(pins).digest('hex').slice(0, 12)
  const dir = join(ROOT, 'node_modules/.cache', `fidelity-venv-${key}`)
  const python = join(dir, 'bin/python')
  if (existsSync(join(dir, '.complete'))) return { python }
  const system = process.env.PYTHON ?? 'python3'
  const version = spawnSync(system, ['--version'], { encoding: 'utf8' })
  if (version.status !== 0)
    return {
      missing: `no Python (${system} --version failed: ${version.error?.message ?? version.stderr})`,
    }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const steps: [string, string[]][] = [
    [system, ['-m', 'venv', dir]],
    [python, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-r', REQUIREMENTS]],
  ]
  for (const [cmd, args] of steps) {
    const run = spawnSync(cmd, args, {
      encoding: 'utf8',
      env: { ...process.env, PIP_RETRIES: process.env.PIP_RETRIES ?? '1' },
    })
    if (run.status !== 0) {
      rmSync(dir, { recursive: true, force: true })
      return { missing: `${cmd} ${args.join(' ')} failed:\n${run.stderr || run.error?.message}` }
    }
  }
  writeFileSync(join(dir, '.complete'), pins)
  return { python }
}

/** The reference's Python version, as [major, minor]. */
export function pythonVersion(python: string): [number, number] {
  const out = spawnSync(
    python,
    ['-c', 'import sys; print(sys.version_info[0], sys.version_info[1])'],
    { encoding: 'utf8' },
  )
  const [major, minor] = out.stdout.trim().split(' ').map(Number)
  return [major!, minor!]
}

/** uvicorn's two HTTP backends. */
export type Backend = 'h11' | 'httptools'

/** Starts the reference app on a free port; `env` reaches the app (STRICT_CONTENT_TYPE). */
export function startReference(
  python: string,
  env: Record<string, string> = {},
  http: Backend = 'h11',
): Promise<Reference> {
  const args = [
    '-m',
    'uvicorn',
    'reference_app:app',
    '--app-dir',
    HERE,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--http',
    http,
    '--no-access-log',
  ]
  const child: ChildProcess = spawn(python, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  return new Promise((resolve, reject) => {
    // About a hang (test/hang.ts): uvicorn importing FastAPI took seconds on a loaded machine, and
    // did not start within 20 s at a load of 44.
    const timer = setTimeout(() => fail('no "Uvicorn running on" line: hung'), HANG_MS)
    const fail = (why: string) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`the reference app did not start: ${why}\n${log}`))
    }
    const exited = (code: number | null) => fail(`exited with ${code}`)
    child.once('exit', exited)
    const stderr = child.stderr!.setEncoding('utf8')
    const started = (d: string) => {
      log += d
      const m = /Uvicorn running on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)
      if (!m) return
      clearTimeout(timer)
      // Started: the start's own two listeners go, and only they. A later line (uvicorn warns of
      // each malformed request) once ran this again and removed every 'exit' listener, close()'s
      // too, when it came between close()'s kill and the exit: the differential's afterAll waited
      // for ever (3 runs of the fast tier in 54; reference.test.ts).
      child.off('exit', exited)
      stderr.off('data', started).resume()
      resolve({
        port: Number(m[1]),
        close: () =>
          new Promise<void>((done) => {
            // Gone already: by its own exit, or by a signal (then exitCode stays null, and 'exit'
            // will not come again).
            if (child.exitCode !== null || child.signalCode !== null) return done()
            child.once('exit', () => done())
            // uvicorn waits for connections a malformed request left open; nothing of it matters here.
            child.kill('SIGKILL')
          }),
      })
    }
    stderr.on('data', started)
  })
}
