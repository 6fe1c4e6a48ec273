// Module resolution hook (see typescript-6.mjs): `typescript`, imported by Stryker (its core
// rewrites tsconfig files, its checker compiles), resolves to TypeScript 6; every other importer
// keeps the project's TypeScript 7.
const TYPESCRIPT_6 = new URL(
  '../../node_modules/.cache/typescript-6/node_modules/typescript/lib/typescript.js',
  import.meta.url,
).href

export async function resolve(specifier, context, next) {
  if (
    specifier === 'typescript' &&
    context.parentURL?.includes('/node_modules/@stryker-mutator/')
  ) {
    return { url: TYPESCRIPT_6, format: 'commonjs', shortCircuit: true }
  }
  return next(specifier, context)
}
