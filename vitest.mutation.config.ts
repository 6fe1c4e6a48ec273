// The tests Stryker runs against each mutant (npm run test:mutation): the whole suite but for the
// tests of things outside the mutated folders that take seconds to minutes each (the Docker
// recipe builds and installs the package, the benchmark's baseline and the real-time timer wait
// on child processes and the wall clock), and the control types' staleness check, which fails
// in Stryker's sandbox before any mutant is active (it tests the generated client file, not the
// mutated code).
// One project, isolated as vitest's default: Stryker's runner takes a plain configuration.
import { defineConfig } from 'vitest/config'
import { HANG_MS } from './test/hang.js'
import { EXCLUDE, INCLUDE } from './vitest.tiers.js'

export default defineConfig({
  test: {
    include: INCLUDE,
    exclude: [
      ...EXCLUDE,
      'test/docker-recipe.test.ts',
      'test/bench/**',
      'test/sandbox/real-timer.test.ts',
      'test/package/control-types.test.ts',
    ],
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    maxWorkers: 2,
  },
})
