// CI only (.ci/run, after `npm ci`): puts the better-sqlite3 binary that `npm ci` just built into
// npm's prebuild cache (~/.npm/_prebuilds), where prebuild-install (better-sqlite3's install
// script) looks before it downloads. Where no prebuilt binary can be downloaded, each later install
// of the package in CI (the packed tarball, the Docker recipe's steps, the Python example outside
// the clone) would compile it again: about 70 s of CPU each on two cores. With the cache they take
// it as they would take a downloaded one; where the download works, this changes nothing.
// docs/DEVELOPMENT.md#ci-and-releases says so.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const pkgDir = dirname(require.resolve('better-sqlite3/package.json'))
const binary = join(pkgDir, 'build/Release/better_sqlite3.node')
if (!existsSync(binary)) {
  console.error(`seed-prebuild: no ${binary}; nothing cached`)
  process.exit(0)
}
// prebuild-install's own names for the download and its cache entry, so they cannot drift.
const pkg = require('better-sqlite3/package.json')
const fromInstaller = (name) =>
  require(require.resolve(`prebuild-install/${name}`, { paths: [pkgDir] }))
const rc = fromInstaller('rc')(pkg) // the options prebuild-install itself derives (platform, ABI, libc)
const util = fromInstaller('util')
const url = util.getDownloadUrl({ ...rc, pkg })
const cached = util.cachedPrebuild(url)
mkdirSync(dirname(cached), { recursive: true })
execFileSync('tar', ['-czf', cached, '-C', pkgDir, 'build/Release/better_sqlite3.node'])
console.log(`seed-prebuild: ${binary} cached as ${cached}`)
