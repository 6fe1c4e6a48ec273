// What building and packing leave in a clone is ignored by git: `npm pack` writes its tarball at
// the root, and a `git add -A` committed it.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const { name, version } = JSON.parse(readFileSync(ROOT + 'package.json', 'utf8'))

it("ignores npm pack's tarball, the build and the local store", () => {
  const paths = [`${name}-${version}.tgz`, 'dist/cli.js', 'data/pix-sandbox.db']
  // check-ignore prints each ignored path (and exits 1 when none is).
  const ignored = (() => {
    try {
      return execFileSync('git', ['check-ignore', '--no-index', ...paths], {
        cwd: ROOT,
        encoding: 'utf8',
      })
    } catch (err) {
      return (err as { stdout: string }).stdout
    }
  })()
  expect(ignored.split('\n').filter(Boolean)).toEqual(paths)
})
