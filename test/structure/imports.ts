// The import graph of a folder of our TypeScript, read from the text: TypeScript 7 has no
// JavaScript API, and dependency-cruiser and madge parse TypeScript through that API (or a
// TypeScript 5 the lockfile cannot hold beside ours). Our sources import in three ways only
// (`import ... from`, `export ... from`, `import()`), which a scan of the code, comments and
// strings blanked first, reads exactly.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export interface Edge {
  /** The imported file, relative to the root; or the package's name (`node:fs`, `zod`). */
  to: string
  /** `import type`, `export type`, or every name imported marked `type`: gone at run time. */
  typeOnly: boolean
}

/** Comments and the insides of strings and templates as spaces, so that only code is scanned; quotes kept. */
function codeOnly(text: string): string {
  return text.replace(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g,
    (m) =>
      m.startsWith('/')
        ? ' '.repeat(m.length)
        : m[0] + m.slice(1, -1).replace(/[^\n]/g, ' ') + m.at(-1),
  )
}

const STATEMENT =
  /\b(import|export)\s+(type\s+)?([^;'"`]*?)\s*\bfrom\s*'|\bimport\s*\(\s*'|\bimport\s+'/g

/** Every file's imports, keyed by its path relative to `root` (`src/...`). */
export function importGraph(root: string, dir: string): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>()
  for (const file of sourceFiles(join(root, dir))) {
    const text = readFileSync(file, 'utf8')
    const code = codeOnly(text)
    const edges: Edge[] = []
    for (const m of code.matchAll(STATEMENT)) {
      // The specifier's text, read from the original at the quote the scan stopped on.
      const start = m.index + m[0].length
      const specifier = text.slice(start, text.indexOf("'", start))
      const names = m[3] ?? ''
      const typeOnly =
        m[2] !== undefined ||
        (/^\{[^}]*\}$/.test(names.trim()) &&
          names
            .replace(/[{}\s]/g, '')
            .split(',')
            .filter(Boolean)
            .every((n) => n.startsWith('type')))
      edges.push({
        to: specifier.startsWith('.') ? target(root, file, specifier) : specifier,
        typeOnly,
      })
    }
    graph.set(relative(root, file), edges)
  }
  return graph
}

/** `./x.js` is `./x.ts` or `./x.tsx` in the sources. */
function target(root: string, from: string, specifier: string): string {
  const path = relative(root, resolve(dirname(from), specifier))
  return path.replace(/\.js$/, '')
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* sourceFiles(path)
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path
  }
}
