// The snippets a team copies into its own repository (README, the user docs, the examples):
// the CLI is the one installed there, `npx --no-install pix-sandbox`, which runs it or stops; a
// bare `npx pix-sandbox` or `npx --yes` would fetch whatever the registry holds under the name
// (before the first release, not this project). What a snippet installs from a registry is
// pinned to this version, and every version a snippet names is this one: bumping package.json
// (scripts/release.mjs checks the artifacts agree) fails here, naming each line to update.
// docs/INSTALL.md says both.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string
/** Notes for the project's own developers (in the clone), not snippets for a team. */
const NOT_FOR_TEAMS = [
  'docs/DEVELOPMENT.md',
  'docs/PERFORMANCE.md',
  'docs/decisions',
  'CHANGELOG.md',
]

const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || NOT_FOR_TEAMS.includes(path)) return []
    if (statSync(join(ROOT, path)).isDirectory()) return files(path)
    return /\.(md|sh|ya?ml|mjs|ts)$/.test(name) ? [path] : []
  })
const SNIPPETS = [
  'README.md',
  'clients/python/README.md',
  ...files('docs'),
  ...files('examples'),
  ...files('deploy'),
]

/** Every line of the snippets that matches `pattern`, as `file:line: text`. */
const lines = (pattern: RegExp) =>
  SNIPPETS.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((text, i) =>
        pattern.test(text) ? [`${relative(ROOT, join(ROOT, file))}:${i + 1}: ${text}`] : [],
      ),
  )

it('call the CLI as npx --no-install pix-sandbox, never npx --yes or a bare npx pix-sandbox', () => {
  expect(lines(/npx\s+(--yes|-y)\b/)).toEqual([])
  expect(lines(/npx\s+pix-sandbox/)).toEqual([])
  expect(lines(/npx --no-install pix-sandbox exec/).length).toBeGreaterThan(8)
})

it('install pix-sandbox from a registry pinned to this version', () => {
  const unpinned = [
    ...lines(/npm install[^`#\n]*\spix-sandbox(?!@|-)/),
    ...lines(/npm install[^`#\n]*\spix-sandbox@(?!\d)/),
    ...lines(/pip install[^`#\n]*\spix-sandbox(?!==)(?![-\w])/),
  ].filter((l) => !l.includes(`pix-sandbox@${VERSION}`) && !l.includes(`pix-sandbox==${VERSION}`))
  expect(unpinned).toEqual([])
  expect(
    lines(
      new RegExp(
        `npm install --save-dev --save-exact pix-sandbox@${VERSION.replace(/\./g, '\\.')}`,
      ),
    ).length,
  ).toBeGreaterThan(4)
})

it("name no version of pix-sandbox but package.json's: a bump fails here until each is updated", () => {
  // Its npm and pip pins, the tarball `npm run package` names, the image's tag, the user-agent.
  const pinned = /pix-sandbox(?:@|==|-|:|\/|\s)v?(\d+\.\d+\.\d+[\w.-]*?)(?=\.tgz|[^\w.-]|\.?$)/g
  const stale = (text: string) =>
    [...text.matchAll(pinned)].map((m) => m[1]).filter((v) => v !== VERSION)
  expect(
    stale('npm install pix-sandbox@0.0.9 and pix-sandbox==0.1.0rc1 or pix-sandbox-1.0.0.tgz'),
  ).toEqual(['0.0.9', '0.1.0rc1', '1.0.0'].filter((v) => v !== VERSION))
  expect(stale(`ghcr.io/pix-sandbox/pix-sandbox:${VERSION}, "pix-sandbox/${VERSION}".`)).toEqual([])
  expect(lines(/./).filter((l) => stale(l.slice(l.indexOf(': ') + 2)).length)).toEqual([])
  const manifests = readdirSync(join(ROOT, 'examples')).flatMap((name) => {
    const path = join(ROOT, 'examples', name, 'package.json')
    if (!existsSync(path)) return []
    const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(path, 'utf8'))
    const spec = dependencies['pix-sandbox'] ?? devDependencies['pix-sandbox']
    return spec === undefined ? [] : [`examples/${name}/package.json: ${spec}`]
  })
  expect(manifests).toEqual([`examples/vitest/package.json: ${VERSION}`])
})
