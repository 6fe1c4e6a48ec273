// Writes scenarios/scenario.schema.json from the zod schema of scenario files, so editors can
// validate and autocomplete them. A test fails when the committed file is out of date.
import { writeFileSync } from 'node:fs'
import { scenarioJsonSchema } from '../src/scenarios/json-schema.js'

const target = new URL('../scenarios/scenario.schema.json', import.meta.url)
writeFileSync(target, JSON.stringify(scenarioJsonSchema(), null, 2) + '\n')
console.log(`wrote ${target.pathname}`)
