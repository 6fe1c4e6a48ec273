// Where /docs reads Swagger UI's files from. In the package: dist/swagger-ui/, which
// scripts/build.mjs copies from swagger-ui-dist, a devDependency (as a dependency it brought
// @scarf/scarf, whose install script sent analytics from every `npm install pix-sandbox`). From
// the sources (tests, `npm run dev`): the devDependency itself.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The files /docs serves, with their types; scripts/build.mjs copies the same. */
export const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
}

/** The folder holding SWAGGER_UI_FILES. */
export function swaggerUiDir(): string {
  // Bundled, this module is a file of dist/, beside dist/swagger-ui/.
  const shipped = fileURLToPath(new URL('./swagger-ui/', import.meta.url))
  if (existsSync(shipped)) return shipped
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}
