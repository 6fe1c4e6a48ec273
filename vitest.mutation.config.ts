// The tests Stryker runs against each mutant (npm run test:mutation): the whole suite but for the
// tests of things outside the mutated folders that take seconds to minutes each (the Docker
// recipe builds and installs the package, the benchmark's baseline and the real-time timer wait
// on child processes and the wall clock), and the control types' staleness check (it compares a
// file generated from the running routes, which Stryker's instrumentation changes, with the one
// committed: it tests the generator, not the mutated code).
import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/docker-recipe.test.ts', 'test/bench/**', 'test/sandbox/real-timer.test.ts', 'test/package/control-types.test.ts'],
    },
  }),
)
