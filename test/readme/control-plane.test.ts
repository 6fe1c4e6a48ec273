// docs/CONTROL-PLANE.md's shell examples (pinning the admin token, the worked story, a tenant of
// your own), run in its order in one shell against a server started as its first block says
// (test/readme/shell.ts): every command succeeds, and every answer shows what the doc prints below
// it, but for what the doc says differs at every run (ids, times, the payer, a new tenant's
// credentials). Its table of every endpoint is run row by row in test/http/control-table.test.ts.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { readmeBlocks } from './readme.js'
import { runDocShell, startSettings } from './shell.js'

const DOC = readFileSync(new URL('../../docs/CONTROL-PLANE.md', import.meta.url), 'utf8')
/** The payer a payment makes up, and a new tenant's generated ids and secret. */
const GENERATED = [
  'name',
  'document',
  'company_id',
  'user_id',
  'client_id',
  'client_secret',
  'token',
]

it('runs every shell example of docs/CONTROL-PLANE.md, in order, as a reader would', async () => {
  const blocks = readmeBlocks(DOC).filter((b) => b.lang === 'sh')
  const env = startSettings(blocks[0]!, /^((?:[A-Z_]+=\S+ )+)npm start\b/m)
  expect(Object.keys(env)).toContain('SANDBOX_ADMIN_TOKEN')
  const run = await runDocShell('docs/CONTROL-PLANE.md', blocks, env, GENERATED)
  expect(run.filter((s) => s.command.includes('curl')).length).toBeGreaterThanOrEqual(10)
}, 60_000)
