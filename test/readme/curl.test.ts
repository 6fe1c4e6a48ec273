// The README's shell examples, run in the README's order in one shell against a server started as
// its quick start says (test/readme/shell.ts): every command succeeds, and every answer shows what
// the README prints below it, but for the values that differ at every run (ids, times, codes). A
// newcomer's first control-plane call answered 401 because the quick start set no admin token.
import { expect, it } from 'vitest'
import { readmeBlocks } from './readme.js'
import { runDocShell, startSettings } from './shell.js'

it('runs every shell example of the README, in order, as a newcomer would after its quick start', async () => {
  const blocks = readmeBlocks().filter((b) => b.lang === 'sh')
  const env = startSettings(blocks[0]!, /^npm ci && ((?:[A-Z_]+=\S+ )+)npm start\b/m)
  expect(Object.keys(env)).toContain('SANDBOX_ADMIN_TOKEN')
  const run = await runDocShell('README.md', blocks, env)
  expect(run.filter((s) => s.command.startsWith('curl')).length).toBeGreaterThanOrEqual(8)
}, 60_000)
