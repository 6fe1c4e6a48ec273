// Teams' own repositories in other languages, outside the clone: the examples copied into empty
// folders and run as their READMEs write them, `npx --no-install pix-sandbox exec ...` included:
// examples/exec, examples/go, examples/maven and the Node suite of docs/READINESS.md. Against the
// packed tarball as installed for examples/vitest (tarball.test.ts: npm install of the tarball,
// no allowScripts warning), shared because each install compiles better-sqlite3 where no
// prebuilt binary downloads: each folder gets the package.json `npm install --save-dev` of the
// tarball writes (docs/INSTALL.md) and a link to that node_modules. Go and Maven run where
// installed (CI installs them).
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { wellFormedXml } from '../readiness/xml.js'
import { exec } from './run.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** A folder where the packed tarball is installed (its node_modules), and the spec npm saved. */
export interface Installed {
  dir: string
  spec: string
}

/** Whether `command` runs here. */
const has = (command: string) => {
  try {
    execFileSync(command, ['-version'], { stdio: 'ignore' })
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' // `go -version` fails, but go ran
  }
}

/** Debian's Maven repository, when it holds the versions the pom takes as properties (the README's offline run). */
const DEBIAN_REPO = '/usr/share/maven-repo'
const MAVEN_OFFLINE = existsSync(join(DEBIAN_REPO, 'org/junit/jupiter/junit-jupiter/5.9.2'))
  ? [
      '-o',
      `-Dmaven.repo.local=${DEBIAN_REPO}`,
      '-Djunit.version=5.9.2',
      '-Dsurefire.version=2.22.3',
    ]
  : []

/** The code block of `lang` that follows `after` in a doc. */
function block(doc: string, after: string, lang: string): string {
  const text = readFileSync(join(ROOT, doc), 'utf8')
  const at = text.indexOf(after)
  expect(at, after).toBeGreaterThan(0)
  const start = text.indexOf(`\`\`\`${lang}\n`, at) + lang.length + 4
  return text.slice(start, text.indexOf('```\n', start))
}

/** The `npx --no-install pix-sandbox ...` line a README shows, as argv. */
function npxLine(doc: string, starts: string): string[] {
  const text = readFileSync(join(ROOT, doc), 'utf8')
  const line = text.split('\n').find((l) => l.replace(/^\$ /, '').startsWith(starts))
  expect(line, `${doc}: ${starts}`).toBeDefined()
  // Runs as a shell would split it: none of these lines quotes anything.
  return line!
    .replace(/^\$ /, '')
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/)
}

export function describeOutside(installed: () => Promise<Installed>, timeout: number): void {
  describe("outside the clone: teams' repositories in other languages", () => {
    let install: Installed
    /** An empty folder beside the install, with `example`'s files and the install's result. */
    const project = (name: string, example?: string) => {
      const dir = join(install.dir, '..', name)
      if (example) cpSync(join(ROOT, example), dir, { recursive: true })
      else mkdirSync(dir, { recursive: true })
      // What `npm install --save-dev <tarball>` writes into a folder with INSTALL.md's allowScripts.
      const manifest = {
        devDependencies: { 'pix-sandbox': install.spec },
        allowScripts: { 'better-sqlite3': true },
      }
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
      symlinkSync(join(install.dir, 'node_modules'), join(dir, 'node_modules'))
      return dir
    }
    const npx = (dir: string, argv: string[]) => {
      expect(argv.slice(0, 3)).toEqual(['npx', '--no-install', 'pix-sandbox'])
      return exec('npx', argv.slice(1), dir)
    }

    beforeAll(async () => {
      install = await installed()
      expect(install.spec).toMatch(/^file:.*pix-sandbox-[\d.]+\.tgz$/)
    }, timeout)

    it('runs examples/exec as its README writes it: 24 of 32 met, exit 0', async () => {
      const dir = project('exec')
      cpSync(join(ROOT, 'examples/exec/suite.sh'), join(dir, 'suite.sh'))
      const r = await npx(
        dir,
        npxLine('examples/exec/README.md', 'npx --no-install pix-sandbox exec'),
      )
      expect(r.stdout).toMatch(/^TAP version 13\n/)
      expect(r.stderr).toContain(
        'pix-sandbox readiness: 24 of 32 behaviours met (75%), no findings',
      )
      expect(r.code, r.stderr).toBe(0)
      expect(wellFormedXml(readFileSync(join(dir, 'readiness.xml'), 'utf8'))).toEqual([])
    })

    it("runs docs/READINESS.md's Node suite as it writes it: 3 of 32 met, exit 0", async () => {
      const dir = project('node-suite')
      mkdirSync(join(dir, 'test'))
      writeFileSync(
        join(dir, 'test/pix.test.mjs'),
        block('docs/READINESS.md', '`test/pix.test.mjs`:', 'js'),
      )
      const argv = npxLine(
        'docs/READINESS.md',
        'npx --no-install pix-sandbox exec --min-coverage 9 --junit readiness.xml -- node --test',
      )
      const r = await npx(dir, argv)
      expect(r.stdout).toMatch(/^# pass 3$/m)
      expect(r.stderr).toContain('pix-sandbox readiness: 3 of 32 behaviours met (9%), no findings')
      expect(r.code, r.stderr).toBe(0)
    })

    it.skipIf(!has('go'))(
      'runs examples/go as its README writes it: 3 of 32 met, readiness.xml ignored by git',
      async () => {
        const dir = project('go', 'examples/go')
        const r = await npx(
          dir,
          npxLine('examples/go/README.md', 'npx --no-install pix-sandbox exec'),
        )
        expect(r.stdout).toMatch(/^ok\s+example\.com\/pix/)
        expect(r.stderr).toContain(
          'pix-sandbox readiness: 3 of 32 behaviours met (9%), no findings',
        )
        expect(r.code, r.stderr).toBe(0)
        expect(existsSync(join(dir, 'readiness.xml'))).toBe(true)
        execFileSync('git', ['init', '-q'], { cwd: dir })
        const untracked = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
          cwd: dir,
          encoding: 'utf8',
        })
        expect(untracked).not.toMatch(/readiness\.xml|node_modules/)
      },
    )

    it.skipIf(!has('mvn'))(
      "runs examples/maven as its README writes it (offline against Debian's repository where it has the versions): 3 of 32 met",
      async () => {
        const dir = project('maven', 'examples/maven')
        const argv = npxLine(
          'examples/maven/README.md',
          'npx --no-install pix-sandbox exec --min-coverage 9',
        )
        const r = await npx(
          dir,
          MAVEN_OFFLINE.length ? [...argv.slice(0, -1), ...MAVEN_OFFLINE, 'test'] : argv,
        )
        expect(r.stderr, r.stdout).toContain(
          'pix-sandbox readiness: 3 of 32 behaviours met (9%), no findings',
        )
        expect(r.code).toBe(0)
        expect(wellFormedXml(readFileSync(join(dir, 'target/readiness.xml'), 'utf8'))).toEqual([])
      },
    )

    it('stops a bare npx --no-install where nothing is installed, running nothing', async () => {
      const dir = join(install.dir, '..', 'empty')
      mkdirSync(dir)
      writeFileSync(join(dir, 'package.json'), '{"name":"empty","private":true}')
      const r = await exec('npx', ['--no-install', 'pix-sandbox', '--version'], dir)
      expect(r.code).not.toBe(0)
      expect(r.stdout).toBe('')
    })
  })
}
