// The reliability suite's global setup (vitest.reliability.config.ts): builds dist/ once, before
// any file runs, as its servers are the built one. Not in npm test: there a build would remove
// dist/ under the package's tests (a readiness test that started its server through here rebuilt
// it while tarball.test.ts packed, and the tarball went out without dist/); npm ci has built it.
import { execSync } from 'node:child_process'
import { ROOT } from '../../bench/processes.js'

export default function build(): void {
  execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' })
}
