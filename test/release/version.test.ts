// One version for everything released together: the npm package, the image's label, the Python
// package and the newest CHANGELOG section all say the same, so that a tag releases one version
// everywhere (the release workflow refuses a tag they disagree with).
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
// biome-ignore format: the directive below must stay on the line TypeScript reports
// @ts-expect-error: a plain script, without types
import { changelogSection, changelogVersions, declaredVersions, releaseProblems } from '../../scripts/release.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const release = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['scripts/release.mjs', ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  )

it('package.json, the Dockerfile label, the Python package and the CHANGELOG name one version', () => {
  const versions = declaredVersions() as Record<string, string | null>
  expect(Object.keys(versions).sort()).toEqual([
    'CHANGELOG.md',
    'Dockerfile',
    'clients/python/pyproject.toml',
    'package.json',
  ])
  expect(new Set(Object.values(versions)), JSON.stringify(versions)).toEqual(
    new Set([versions['package.json']]),
  )
})

it('keeps a changelog: an Unreleased section first, then dated versions, newest first, each with notes', () => {
  const versions: string[] = changelogVersions()
  expect(versions.length).toBeGreaterThan(0)
  expect([...versions].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))).toEqual(
    versions,
  )
  for (const v of versions)
    expect(changelogSection(v), v).toMatch(
      /^### (Added|Changed|Deprecated|Removed|Fixed|Security)\n/,
    )
  expect(
    changelogVersions('## [Unreleased]\n\n## [1.2.0] - 2026-01-02\n## [1.1.0] - 2026-01-01\n'),
  ).toEqual(['1.2.0', '1.1.0'])
  expect(
    changelogSection(
      '1.1.0',
      '## [1.2.0] - 2026-01-02\n### Fixed\n- b\n## [1.1.0] - 2026-01-01\n### Added\n- a\n\n[1.1.0]: https://x\n',
    ),
  ).toBe('### Added\n- a')
})

it('refuses a release while [Unreleased] holds notes: they would ship without appearing in its notes', () => {
  const versions = { 'package.json': '1.2.0', 'CHANGELOG.md': '1.2.0' }
  const dated = '## [Unreleased]\n\n## [1.2.0] - 2026-01-02\n### Added\n- b\n'
  expect(releaseProblems('1.2.0', versions, dated)).toEqual([])
  expect(
    releaseProblems(
      '1.2.0',
      versions,
      dated.replace('## [Unreleased]\n', '## [Unreleased]\n### Added\n- c\n'),
    ),
  ).toEqual([
    "CHANGELOG.md's [Unreleased] still holds notes: move them into 1.2.0's section, dated the day of the tag",
  ])
})

it('the release script accepts the declared version (nothing left unreleased) and refuses another, naming each file', async () => {
  const version = (declaredVersions() as Record<string, string>)['package.json']!
  if (!changelogSection('Unreleased'))
    expect(await release('check', version)).toMatchObject({ code: 0 })
  const refused = await release('check', '99.0.0')
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain(`package.json says ${version}, the tag 99.0.0`)
  expect(refused.stderr).toContain(`Dockerfile says ${version}`)
  expect(refused.stderr).toContain(`clients/python/pyproject.toml says ${version}`)
  expect((await release('notes', version)).stdout).toContain('### Added')
  expect((await release('notes', '99.0.0')).code).toBe(1)
})

it("the Python package ships the project's license", () => {
  const read = (file: string) => readFileSync(ROOT + file, 'utf8')
  expect(read('clients/python/LICENSE')).toBe(read('LICENSE'))
  expect(read('clients/python/pyproject.toml')).toMatch(/^license-files = \["LICENSE"\]$/m)
})
