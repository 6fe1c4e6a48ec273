// The control client's types are generated (openapi-typescript) from the server's own
// /_sandbox/openapi.json and committed: this fails when a route changed and they were not.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { controlTypes, TARGET } from '../../scripts/control-types.js'

it('src/client/openapi.ts is what `npm run control-types` generates now', async () => {
  const committed = readFileSync(TARGET, 'utf8')
  const generated = await controlTypes()
  expect(generated === committed, 'src/client/openapi.ts is stale: run `npm run control-types` and commit it').toBe(true)
})
