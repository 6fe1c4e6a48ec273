// npm run build: bundles the server into dist/ with esbuild. One file starts about 40%
// faster than hundreds of ES modules resolved and read one by one (measured: ~630 ms -> ~400 ms
// to the first 200 on /_sandbox/health). Native and lazily loaded packages stay external.
// Three entries share their code through chunks: main.js (`npm start`), cli.js (the
// `pix-sandbox` command) and index.js (`import { startSandbox } from 'pix-sandbox'`).
// Type declarations are built by `npm run build:types` (tsconfig.build.json), before packing.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
await build({
  entryPoints: ['src/main.ts', 'src/cli.ts', 'src/index.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: '[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  legalComments: 'external',
  external: ['better-sqlite3', '@faker-js/faker'],
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
})

// The shipped scenarios, parsed and validated now rather than at every cold start
// (src/scenarios/compiled.ts): the compiler is bundled to a temporary file and run.
// Inside the project, so that its packages resolve from there.
const temp = mkdtempSync('node_modules/.cache-pix-build-')
/** A TypeScript module of the project, bundled to the temporary folder and imported. */
const load = async (entry) => {
  const outfile = join(process.cwd(), temp, entry.replace(/\W+/g, '-') + '.mjs')
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
  return import(pathToFileURL(outfile).href)
}
try {
  const { compileScenarios } = await load('scripts/compile-scenarios.ts')
  compileScenarios('scenarios', 'dist')
  // Swagger UI's files for /docs, and their licence, copied from the swagger-ui-dist
  // devDependency (src/http/swagger-ui.ts says why it is no dependency of the package).
  const { SWAGGER_UI_FILES } = await load('src/http/swagger-ui.ts')
  const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  mkdirSync('dist/swagger-ui')
  const files = [...Object.keys(SWAGGER_UI_FILES), 'LICENSE', 'NOTICE']
  // The licences of what each file bundles, where it has them.
  for (const file of [
    ...files,
    ...files.map((f) => `${f}.LICENSE.txt`).filter((f) => existsSync(join(from, f))),
  ]) {
    copyFileSync(join(from, file), join('dist/swagger-ui', file))
  }
} finally {
  rmSync(temp, { recursive: true, force: true })
}
