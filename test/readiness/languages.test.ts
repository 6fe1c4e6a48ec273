// The first hour in another language: examples/maven (JUnit 5, Surefire) and examples/go, the
// suites docs/READINESS.md shows word for word, run under `pix-sandbox exec` as it says, where
// the toolchain is present (CI installs Debian's golang-go, maven and junit5: .ci/run). Maven
// runs offline against Debian's repository when it holds the versions the pom takes as
// properties; elsewhere against Maven Central, with the pom's own versions.
import { execFile, execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'
import { wellFormedXml } from './xml.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const doc = readFileSync(join(ROOT, 'docs/READINESS.md'), 'utf8')
const dir = mkdtempSync(join(tmpdir(), 'pix-languages-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Whether `command` runs here; the test names say why one is skipped. */
const has = (command: string) => {
  try {
    execFileSync(command, ['-version'], { stdio: 'ignore' })
    return true
  } catch (err) {
    // `go -version` is an error, but go ran.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}
const DEBIAN_REPO = '/usr/share/maven-repo'
const debianMaven =
  existsSync(join(DEBIAN_REPO, 'org/junit/jupiter/junit-jupiter/5.9.2')) &&
  existsSync(join(DEBIAN_REPO, 'org/apache/maven/plugins/maven-surefire-plugin/2.22.3'))
const MAVEN = debianMaven
  ? [
      '-o',
      `-Dmaven.repo.local=${DEBIAN_REPO}`,
      '-Djunit.version=5.9.2',
      '-Dsurefire.version=2.22.3',
    ]
  : []

/** `pix-sandbox exec` in `cwd`, as the docs run it. */
const exec = (
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli.ts'), 'exec', ...args],
      { cwd, timeout: HANG_MS },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })

/** The code block that follows `after` in docs/READINESS.md. */
const block = (after: string, lang: string) => {
  const at = doc.indexOf(after)
  expect(at, after).toBeGreaterThan(0)
  const start = doc.indexOf('```' + lang + '\n', at) + lang.length + 4
  return doc.slice(start, doc.indexOf('```\n', start))
}

describe('the examples in other languages', () => {
  it('are the suites docs/READINESS.md shows, word for word', () => {
    expect(block('`src/test/java/PixTest.java`:', 'java')).toBe(
      readFileSync(join(ROOT, 'examples/maven/src/test/java/PixTest.java'), 'utf8'),
    )
    expect(block('`pix_test.go` beside a `go.mod`', 'go')).toBe(
      readFileSync(join(ROOT, 'examples/go/pix_test.go'), 'utf8'),
    )
    expect(doc).toContain('(`module example.com/pix`, `go 1.19`)')
    expect(readFileSync(join(ROOT, 'examples/go/go.mod'), 'utf8')).toBe(
      'module example.com/pix\n\ngo 1.19\n',
    )
  })

  const MVN = has('mvn')
  const GO = has('go')
  const missing = (command: string, packages: string) =>
    ` (skipped: no ${command} here; on Debian, apt-get install ${packages})`

  it.skipIf(!MVN)(
    `Maven (JUnit 5, Surefire) passes under exec --min-coverage 9: 3 behaviours met, no finding${MVN ? '' : missing('mvn', 'maven junit5 libsurefire-java')}`,
    async () => {
      const project = join(dir, 'maven')
      cpSync(join(ROOT, 'examples/maven'), project, { recursive: true })
      const r = await exec(project, [
        '--min-coverage',
        '9',
        '--junit',
        'target/readiness.xml',
        '--',
        'mvn',
        '-q',
        ...MAVEN,
        'test',
      ])
      expect(r.stderr, r.stdout).toContain(
        'pix-sandbox readiness: 3 of 32 behaviours met (9%), no findings',
      )
      expect(r.code).toBe(0)
      expect(
        readFileSync(join(project, 'target/surefire-reports/TEST-PixTest.xml'), 'utf8'),
      ).toMatch(/tests="3" errors="0" skipped="0" failures="0"/)
      expect(wellFormedXml(readFileSync(join(project, 'target/readiness.xml'), 'utf8'))).toEqual([])
    },
  )

  it.skipIf(!GO)(
    `Go passes under exec --min-coverage 9: 3 behaviours met, no finding${GO ? '' : missing('go', 'golang-go')}`,
    async () => {
      const module = join(dir, 'go')
      cpSync(join(ROOT, 'examples/go'), module, { recursive: true })
      const r = await exec(module, [
        '--min-coverage',
        '9',
        '--junit',
        'readiness.xml',
        '--',
        'go',
        'test',
        '-count=1',
        './...',
      ])
      expect(r.stdout).toMatch(/^ok\s+example\.com\/pix/)
      expect(r.stderr).toContain('pix-sandbox readiness: 3 of 32 behaviours met (9%), no findings')
      expect(r.code).toBe(0)
    },
  )
})
