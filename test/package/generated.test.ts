// Generated files are committed (the package ships them; editors read the JSON Schema), and
// `npm run generate` writes them all: this fails when any is stale, naming the file and its source.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { GENERATED, pathOf } from '../../scripts/generate.js'

it.each(GENERATED)('$target is what `npm run generate` writes now', async (g) => {
  const committed = readFileSync(pathOf(g), 'utf8')
  const now = await g.generate()
  expect(
    committed === now,
    `${g.target} is stale (from ${g.source}): run \`npm run generate\` and commit it`,
  ).toBe(true)
})
