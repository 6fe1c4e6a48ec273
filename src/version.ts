// The package's version, read from its package.json (src/ and dist/ both sit one level below it).
import { readFileSync } from 'node:fs'

export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version
