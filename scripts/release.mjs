// One version for everything released together: the npm package (package.json), the image (the
// Dockerfile's org.opencontainers.image.version label), the Python package
// (clients/python/pyproject.toml) and a CHANGELOG.md section. The release workflow runs
//   node scripts/release.mjs check <version>   exits 1, naming each that disagrees with the tag,
//                                              or when [Unreleased] still holds notes (they would
//                                              be published without appearing in the release's)
//   node scripts/release.mjs notes <version>   prints that version's CHANGELOG section
// and test/release/version.test.ts checks that they agree on every commit; the versions the docs,
// examples and deploy files pin (npm install pix-sandbox@..., the image's tag) are
// test/structure/snippets.test.ts's, which names each one a bump leaves behind.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (file) => readFileSync(ROOT + file, 'utf8')

/** The version each artifact declares, by the file that declares it. */
export function declaredVersions() {
  return {
    'package.json': JSON.parse(read('package.json')).version,
    Dockerfile:
      /org\.opencontainers\.image\.version="([^"]+)"/.exec(read('Dockerfile'))?.[1] ?? null,
    'clients/python/pyproject.toml':
      /^version\s*=\s*"([^"]+)"/m.exec(read('clients/python/pyproject.toml'))?.[1] ?? null,
    'CHANGELOG.md': changelogVersions()[0] ?? null,
  }
}

/** The released versions of the CHANGELOG, newest first (`## [0.1.0] - 2026-11-24`). */
export function changelogVersions(text = read('CHANGELOG.md')) {
  return [...text.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\] - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1])
}

/** The body of a version's CHANGELOG section (up to the next section or the link list); `Unreleased` for that one. */
export function changelogSection(version, text = read('CHANGELOG.md')) {
  const lines = text.split('\n')
  const start = lines.findIndex((l) =>
    version === 'Unreleased' ? l === '## [Unreleased]' : l.startsWith(`## [${version}] - `),
  )
  if (start < 0) return null
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((l) => l.startsWith('## [') || /^\[[^\]]+\]: /.test(l))
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim()
}

/** Why `version` cannot be released from this commit: each artifact that disagrees, and notes left in [Unreleased]. */
export function releaseProblems(
  version,
  versions = declaredVersions(),
  changelog = read('CHANGELOG.md'),
) {
  const problems = Object.entries(versions)
    .filter(([, v]) => v !== version)
    .map(([file, v]) => `${file} says ${v ?? 'nothing'}, the tag ${version}`)
  if (changelogSection('Unreleased', changelog))
    problems.push(
      `CHANGELOG.md's [Unreleased] still holds notes: move them into ${version}'s section, dated the day of the tag`,
    )
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, version] = process.argv.slice(2)
  if (!version || !['check', 'notes'].includes(command)) {
    console.error('usage: node scripts/release.mjs check|notes <version>')
    process.exit(2)
  }
  if (command === 'notes') {
    const notes = changelogSection(version)
    if (!notes) {
      console.error(`CHANGELOG.md has no section for ${version}`)
      process.exit(1)
    }
    console.log(notes)
  } else {
    const problems = releaseProblems(version)
    for (const problem of problems) console.error(problem)
    if (problems.length) process.exit(1)
    console.log(`every artifact is at ${version}`)
  }
}
