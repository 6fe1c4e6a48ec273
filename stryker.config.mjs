// Mutation testing (npm run test:mutation): where a wrong line costs users most. Not in CI: see
// the README's Development section for how long a run takes. Add `--mutate <file>` to run one file.
const typescript6 = new URL('./scripts/stryker/typescript-6.mjs', import.meta.url).pathname

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/domain/**/*.ts',
    'src/operations/**/*.ts',
    'src/http/auth.ts',
    'src/http/redact.ts',
    'src/http/secret-names.ts',
    'src/http/contract/**/*.ts',
    'src/store/ledger.ts',
    'src/store/charges.ts',
    'src/pix/**/*.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // The checker needs TypeScript 6's compiler API (see scripts/stryker/typescript-6.mjs).
  checkerNodeArgs: ['--import', typescript6],
  // Static mutants (module-level code, and code every test's setup runs, such as the scenario
  // loader) rerun every test that imports them: about a minute each here, most of a day for the
  // scope. They are left out; the scores in the README are of the rest.
  ignoreStatic: true,
  // Only mutants whose code or tests changed since the last run are tested again.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  // Two cores, shared: one test runner, and room for timeouts on a busy machine.
  concurrency: 1,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
}
