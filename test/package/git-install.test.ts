// docs/INSTALL.md's route before the first release, "a commit": `npm install --save-dev
// <git URL>#<commit>` into a team's own, empty folder. npm clones the repository, installs its dev
// dependencies in that clone, runs its `prepare` there (dist/ and its types: nothing built is
// committed) and installs the result; the allowScripts INSTALL.md names (better-sqlite3, and the
// repository's URL for that `prepare`) leave npm 11 nothing to warn of; the CLI then answers
// `npx --no-install pix-sandbox`. Here the URL is `git+file://` of a clone of this repository's
// HEAD in a temp folder (what is committed, as a team would get it from GitHub), through the npm
// cache. Minutes: the clone's dev dependencies, and better-sqlite3 where it compiles.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exec, type Outcome } from './run.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string
// The clone's dev dependencies, better-sqlite3 compiled where no prebuilt binary downloads (in the
// clone, then in the folder), esbuild and tsc: 9 minutes on a loaded 2-core machine.
const INSTALL_TIMEOUT = 25 * 60_000

/** Why this does not run here (not asked for, no git, or not a git checkout), or undefined. */
function unavailable(): string | undefined {
  // Opt-in: it takes 5-10 minutes, which would take CI's whole run past its 20-minute budget
  // (docs/DEVELOPMENT.md#commands says when to run it).
  if (process.env.PIX_TEST_GIT_INSTALL !== '1') return 'set PIX_TEST_GIT_INSTALL=1 to run it'
  try {
    execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: 'pipe' })
    return undefined
  } catch {
    return 'no git, or this is not a git checkout'
  }
}
const why = unavailable()
if (why) console.warn(`test/package/git-install.test.ts skipped: ${why}`)

describe.skipIf(why !== undefined)(
  'installed from a commit (a git URL), as docs/INSTALL.md says',
  () => {
    let dir: string
    let clone: string
    let app: string
    let commit: string
    let installed: Outcome

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'pix-git-'))
      clone = join(dir, 'pix-sandbox')
      execFileSync('git', ['clone', '--quiet', ROOT, clone])
      commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim()
      app = join(dir, 'app')
      mkdirSync(app)
      // INSTALL.md's allowScripts, the repository's URL in place of `github:pix-sandbox/pix-sandbox`.
      const manifest = {
        name: 'app',
        private: true,
        allowScripts: { 'better-sqlite3': true, [`git+file://${clone}`]: true },
      }
      writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
      installed = await exec(
        'npm',
        [
          'install',
          '--save-dev',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          `git+file://${clone}#${commit}`,
        ],
        app,
        INSTALL_TIMEOUT,
      )
      expect(installed.code, installed.stderr).toBe(0)
    }, INSTALL_TIMEOUT)
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true })
    }, 120_000)

    it('builds what is not committed (dist/ and its types) with `prepare`, and saves the URL pinned to the commit', () => {
      expect(existsSync(join(clone, 'dist'))).toBe(false)
      for (const f of ['dist/cli.js', 'dist/index.js', 'dist/types/public.d.ts'])
        expect(existsSync(join(app, 'node_modules/pix-sandbox', f)), f).toBe(true)
      const saved = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
      expect(saved.devDependencies).toEqual({ 'pix-sandbox': `git+file://${clone}#${commit}` })
    })

    it('leaves npm nothing to warn of with the allowScripts INSTALL.md names', () => {
      expect(installed.stderr).not.toMatch(/allowScripts|install-scripts/)
    })

    it('answers npx --no-install pix-sandbox in that folder', async () => {
      const r = await exec('npx', ['--no-install', 'pix-sandbox', '--version'], app)
      expect(r.stderr).toBe('')
      expect([r.code, r.stdout.trim()]).toEqual([0, VERSION])
    }, 120_000)

    it("runs an embedded sandbox there (better-sqlite3's binary and the built code work)", async () => {
      writeFileSync(
        join(app, 'embedded.mjs'),
        `import { startSandbox } from 'pix-sandbox'
const sb = await startSandbox()
const res = await fetch(sb.baseUrl + '/hub/transactions/in', {
  method: 'POST', headers: { authorization: sb.credentials.main.authorization, 'content-type': 'application/json' }, body: '{"amount":1000}' })
const charge = await res.json()
console.log(res.status, (await sb.control.charges.pay(charge.transaction_id)).status)
await sb.close()
`,
      )
      const r = await exec(process.execPath, ['embedded.mjs'], app)
      expect(r.stderr).toBe('')
      expect([r.code, r.stdout.trim()]).toEqual([0, '200 paid'])
    }, 120_000)
  },
)
