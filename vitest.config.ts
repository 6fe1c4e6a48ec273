import { defineConfig } from 'vitest/config'
import { HANG_MS } from './test/hang.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The reliability suite has its own command (npm run test:reliability).
    exclude: ['test/reliability/**', 'node_modules/**'],
    // Timeouts are about hangs, not speed (test/hang.ts): at a load average of 40 on two cores,
    // tests that take a second idle took over 20 s, the old bound, and failed.
    testTimeout: HANG_MS,
    // Two files at a time, whatever the cores: most of the slow files wait on processes, installs
    // and timers, not the CPU, and one at a time (vitest's default on two cores) made the suite
    // twice as long. More than two starved the timing-sensitive ones on a loaded two-core machine.
    maxWorkers: 2,
    hookTimeout: HANG_MS,
  },
})
