// The tests Stryker runs against each mutant (npm run test:mutation): the whole suite but for the
// tests of things outside the mutated folders that take seconds to minutes each (the Docker
// recipe builds and installs the package, the benchmark's baseline and the real-time timer wait
// on child processes and the wall clock), and the control types' staleness check, which fails
// in Stryker's sandbox before any mutant is active (it tests the generated client file, not the
// mutated code).
import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/docker-recipe.test.ts',
        'test/bench/**',
        'test/sandbox/real-timer.test.ts',
        'test/package/control-types.test.ts',
      ],
    },
  }),
)
