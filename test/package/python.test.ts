// The Python package's own checks, in `npm test` wherever Python 3.10+ is: mypy --strict and ruff
// over the package and examples/pytest, then the tests of its helpers, errors, imports and
// install hint (pytest -n 2) against this checkout's built CLI (dist/cli.js). They run from the sources, in a virtual
// environment kept in node_modules/.cache (made once). The rest of its tests (starting, stopping
// and guarding server processes, the plugin under pytester, the READMEs: minutes on a loaded
// machine) and the built wheel are scripts/python-ci.sh's, in CI. Where Python or its packages
// cannot be had, the test says so and is skipped.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const VENV = join(ROOT, 'node_modules/.cache/pix-sandbox-python')
const PY = join(VENV, 'bin/python')
const TOOLS = ['pytest', 'pytest-xdist', 'mypy', 'ruff', 'hatchling', 'editables']
const run = promisify(execFile)

/** The package's tests run here: what a change to the helpers, the types or the install hint breaks. */
const TESTS = [
  'test_helpers.py',
  'test_errors.py',
  'test_imports.py',
  'test_connect.py',
  'test_cli.py::test_none_found_says_how_to_install_it_as_install_md_does',
]

/** Why the checks cannot run here, or undefined when they can. */
function unavailable(): string | undefined {
  try {
    const version = execFileSync(
      'python3',
      ['-c', 'import sys; print(sys.version_info >= (3, 10))'],
      { encoding: 'utf8' },
    )
    if (version.trim() !== 'True') return 'python3 is older than 3.10'
  } catch {
    return 'no python3 on PATH'
  }
  if (existsSync(join(VENV, '.ready'))) return undefined
  try {
    execFileSync('python3', ['-m', 'venv', VENV])
    execFileSync(PY, ['-m', 'pip', 'install', '-q', ...TOOLS], {
      env: { ...process.env, PIP_RETRIES: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' },
      stdio: 'pipe',
    })
    // Editable: the tests import the sources, and the pytest plugin is registered.
    execFileSync(
      PY,
      ['-m', 'pip', 'install', '-q', '--no-build-isolation', '-e', join(ROOT, 'clients/python')],
      { stdio: 'pipe' },
    )
    execFileSync('touch', [join(VENV, '.ready')])
    return undefined
  } catch (err) {
    return `the Python tools could not be installed (${String(err).split('\n')[0]})`
  }
}

const why = unavailable()
if (why) console.warn(`test/package/python.test.ts skipped: ${why}`)

describe.skipIf(why !== undefined)("the Python package's checks", () => {
  // The package's tests start their own sandbox: a sandbox this shell points at is not theirs.
  const { PIX_SANDBOX_URL: _url, PIX_SANDBOX_ADMIN_TOKEN: _token, ...inherited } = process.env
  const env = {
    ...inherited,
    PIX_SANDBOX_BIN: join(ROOT, 'dist/cli.js'),
    // This checkout's sources, first: the environment is made once, and its editable install
    // points at the checkout that made it (another worktree's, whose node_modules was copied).
    PYTHONPATH: join(ROOT, 'clients/python/src'),
    MYPY_CACHE_DIR: join(VENV, 'mypy-cache'),
    RUFF_CACHE_DIR: join(VENV, 'ruff-cache'),
  }
  const tool = (cwd: string, ...args: string[]) =>
    run(PY, ['-m', ...args], { cwd: join(ROOT, cwd), env, maxBuffer: 16 << 20 }).catch(
      (err: { stdout?: string; stderr?: string }) => {
        throw new Error(`${args.join(' ')} in ${cwd}:\n${err.stdout ?? ''}${err.stderr ?? ''}`)
      },
    )

  beforeAll(() => {
    expect(existsSync(env.PIX_SANDBOX_BIN), 'dist/cli.js: run npm run build').toBe(true)
  })

  it.each(['clients/python', 'examples/pytest'])(
    '%s is clean under mypy --strict and ruff',
    async (dir) => {
      await tool(dir, 'mypy', '--strict', '.')
      await tool(dir, 'ruff', 'check', '.')
      await tool(dir, 'ruff', 'format', '--check', '.')
    },
  )

  it("passes its helpers', errors', imports' and install hint's tests against the built CLI", async () => {
    const tests = TESTS.map((t) => `tests/${t}`)
    const { stdout } = await tool(
      'clients/python',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      '-n',
      '2',
      ...tests,
    )
    expect(stdout).toMatch(/\d+ passed/)
  })
})
