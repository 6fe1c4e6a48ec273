// The two tiers of `npm test` (docs/DEVELOPMENT.md#commands): `npm run test:fast` (vitest's
// project `fast`) is the tests a maintainer runs after each change, every test but the slow ones
// below, which run in `npm test` and CI too (project `slow`). Fast is everything minus this one
// list, so a new test file is fast until it is named here; test/structure/tiers.test.ts fails
// when an entry names no test file, or a file that drives chromium is not named.

/**
 * Whether this run is `npm run test:fast`: a test that sends many generated cases sends fewer
 * there, so that the tier a maintainer runs after each change stays short
 * (docs/DEVELOPMENT.md#the-fast-tiers-time); `npm test` and CI send them all.
 */
export const FAST_TIER_RUN = process.env.npm_lifecycle_event === 'test:fast'

/** What `npm test` runs: the reliability suite has its own command (npm run test:reliability). */
export const INCLUDE = ['test/**/*.test.ts', 'src/**/*.test.ts']
export const EXCLUDE = ['test/reliability/**', 'node_modules/**']

/** Test files (or folders, `dir/**`) that take seconds each: processes, browsers, the wall clock. */
export const SLOW = [
  // Build, pack or install the package, or run its recipes and the README.
  'test/docker-recipe.test.ts',
  'test/package/tarball.test.ts',
  'test/package/git-install.test.ts',
  'test/recipes/typed-client.test.ts',
  'test/recipes/testcontainers.test.ts',
  'test/readme/**',
  'test/bench/baseline.test.ts',
  // Drive chromium.
  'test/ui/companies-paging.test.ts',
  'test/ui/dashboard.test.ts',
  'test/ui/docs-try-it-out.test.ts',
  'test/ui/first-contact.test.ts',
  'test/ui/readiness.test.ts',
  'test/ui/receiver-check.test.ts',
  'test/ui/scope-and-pages.test.ts',
  'test/ui/qa-session.test.ts',
  // Start the CLI, or a second process on a store, and wait for it.
  'test/package/cli.test.ts',
  'test/package/embedded.test.ts',
  'test/http/banner.test.ts',
  'test/ui/cjs-main.test.ts',
  'test/store/single-server.test.ts',
  'test/probe/command.test.ts',
  'test/readiness/exec.test.ts',
  'test/readiness/example.test.ts',
  'test/readiness/readiness-command.test.ts',
  'test/readiness/persistence.test.ts',
  'test/bench/seed.test.ts',
  // Run the Python package's mypy, ruff and tests (test/package/python.test.ts).
  'test/package/python.test.ts',
  // Run other toolchains (Maven, Go) or a whole merchant integration, in orders, under exec.
  'test/readiness/languages.test.ts',
  'test/readiness/integrations.test.ts',
  'test/readiness/go-integration.test.ts',
  // Wait on the wall clock: real timers, a receiver's 5 s limit, chaos held for seconds.
  'test/sandbox/real-timer.test.ts',
  'test/readiness/receiver-check.test.ts',
  'test/readiness/findings.test.ts',
  'test/readiness/in-flight.test.ts',
  'test/readiness/receiver-slow.test.ts',
  'test/webhooks/fairness.test.ts',
]
