import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The reliability suite has its own command (npm run test:reliability).
    exclude: ['test/reliability/**', 'node_modules/**'],
    testTimeout: 20_000,
    // Two files at a time, whatever the cores: most of the slow files wait on processes, installs
    // and timers, not the CPU, and one at a time (vitest's default on two cores) made the suite
    // twice as long. More than two starved the timing-sensitive ones on a loaded two-core machine.
    maxWorkers: 2,
    hookTimeout: 30_000,
  },
})
