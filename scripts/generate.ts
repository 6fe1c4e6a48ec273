// npm run generate: writes every generated file of the project from its one source, so that a
// shape changed in one place reaches the others by one command; `npm run generate -- --check`
// (and test/package/generated.test.ts, in `npm test`) fails when a committed one is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { scenarioJsonSchema } from '../src/scenarios/json-schema.js'
import { controlTypes } from './control-types.js'
import { helperDocs, nodeHelpers, pythonHelpers } from './helpers/index.js'
import { pythonTypes } from './python-types.js'

export interface Generated {
  /** The file, relative to the project's root. */
  target: string
  /** Where it comes from, for the message that says it is stale. */
  source: string
  generate(): Promise<string>
}

export const GENERATED: Generated[] = [
  {
    target: 'scenarios/scenario.schema.json',
    source: 'the zod schema of scenario files (src/scenarios/schema.ts, settings.ts)',
    generate: async () => JSON.stringify(scenarioJsonSchema(), null, 2) + '\n',
  },
  {
    target: 'src/client/openapi.ts',
    source: "the control plane's /_sandbox/openapi.json (its routes' schemas)",
    generate: controlTypes,
  },
  {
    target: 'clients/python/src/pix_sandbox/schemas.py',
    source: "the control plane's /_sandbox/openapi.json (its routes' schemas)",
    generate: pythonTypes,
  },
  {
    target: 'src/client/control.ts',
    source: 'the table of helpers (src/client/helpers.ts) and /_sandbox/openapi.json',
    generate: nodeHelpers,
  },
  {
    target: 'clients/python/src/pix_sandbox/control.py',
    source: 'the table of helpers (src/client/helpers.ts) and /_sandbox/openapi.json',
    generate: pythonHelpers,
  },
  {
    target: 'docs/PYTHON.md',
    source: 'the table of helpers (src/client/helpers.ts), between the markers of its table',
    generate: helperDocs,
  },
]

export const pathOf = (g: Generated) => fileURLToPath(new URL(`../${g.target}`, import.meta.url))

/** The generated files whose committed text differs from what their source gives now. */
export async function staleFiles(): Promise<Generated[]> {
  const stale: Generated[] = []
  for (const g of GENERATED)
    if (readFileSync(pathOf(g), 'utf8') !== (await g.generate())) stale.push(g)
  return stale
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--check')) {
    const stale = await staleFiles()
    for (const g of stale)
      console.error(`stale: ${g.target} (from ${g.source}): run \`npm run generate\` and commit it`)
    process.exit(stale.length ? 1 : 0)
  }
  for (const g of GENERATED) {
    writeFileSync(pathOf(g), await g.generate())
    console.log(`wrote ${g.target}`)
  }
}
