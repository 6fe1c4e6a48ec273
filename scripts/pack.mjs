// npm run package [-- DIR]: the package as it is published, pix-sandbox-<version>.tgz in DIR (the
// root by default; its path printed last). Builds dist/ and its types (`prepare`), then packs the
// files `npm pack` would, beside a package.json without the scripts, the dev dependencies and
// the project's own install policy. Without its `prepare`, the package brings no install script
// of its own: npm 11 lists a tarball's or a URL's `prepare` among the install scripts a consumer
// must allow (it never runs it for a tarball), though a registry package's `prepare` is not.
// The repository keeps `prepare` for a clone (`npm ci` builds) and for a git URL, where npm
// installs the dev dependencies in a copy of the clone and `prepare` builds dist/ there.
// Plain `npm pack` and `npm publish` at the root are refused by `prepack`: what they would pack
// keeps the scripts. docs/DEVELOPMENT.md#packing
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** What only the repository uses: a consumer's npm would list `prepare` as an install script. */
const REPOSITORY_ONLY = ['scripts', 'devDependencies', 'allowScripts', 'scarfSettings']

const dest = resolve(process.argv[2] ?? ROOT)
const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })

npm(['run', '--silent', 'prepare'], ROOT)
// The files `npm pack` would take (package.json's `files`, README, LICENSE...), without packing.
const [{ files }] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT))
const stage = mkdtempSync(join(tmpdir(), 'pix-sandbox-pack-'))
try {
  for (const { path } of files) {
    if (path === 'package.json') continue
    cpSync(join(ROOT, path), join(stage, path))
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  for (const key of REPOSITORY_ONLY) delete manifest[key]
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const [{ filename }] = JSON.parse(
    npm(['pack', stage, '--json', '--ignore-scripts', '--pack-destination', dest], ROOT),
  )
  console.log(join(dest, filename))
} finally {
  rmSync(stage, { recursive: true, force: true })
}
