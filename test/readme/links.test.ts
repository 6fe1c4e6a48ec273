// Every relative link of the user-facing Markdown (README, docs/, examples/, the Python package's
// README, the CHANGELOG) points at a file of the repository, and every #anchor at a heading of
// the file it names, as GitHub renders them: a reader who clicks never lands on a 404.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const markdown = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name.startsWith('.')) return []
    return statSync(join(ROOT, path)).isDirectory()
      ? markdown(path)
      : name.endsWith('.md')
        ? [path]
        : []
  })
const FILES = [
  'README.md',
  'CHANGELOG.md',
  'clients/python/README.md',
  ...markdown('docs'),
  ...markdown('examples'),
]

/** GitHub's heading ids: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '')
  const seen = new Map<string, number>()
  const ids = new Set<string>()
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    ids.add(n === 0 ? base : `${base}-${n}`)
  }
  return ids
}

it.each(FILES)('%s: every relative link and anchor resolves', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '')
  const broken: string[] = []
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!) || target!.startsWith('<')) continue // http:, mailto:...
    const [path, anchor] = target!.split('#') as [string, string | undefined]
    const resolved =
      path === '' ? file : relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(path)))
    if (!existsSync(join(ROOT, resolved))) broken.push(`${target}: no ${resolved}`)
    else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
      broken.push(`${target}: no heading #${anchor} in ${resolved}`)
  }
  expect(broken).toEqual([])
})
