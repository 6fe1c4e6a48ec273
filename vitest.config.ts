import { defineConfig } from 'vitest/config'
import { HANG_MS } from './test/hang.js'
import { EXCLUDE, INCLUDE, SLOW } from './vitest.tiers.js'

export default defineConfig({
  test: {
    // Timeouts are about hangs, not speed (test/hang.ts): at a load average of 40 on two cores,
    // tests that take a second idle took over 20 s, the old bound, and failed.
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    // Two files at a time, whatever the cores: most of the slow files wait on processes, installs
    // and timers, not the CPU, and one at a time (vitest's default on two cores) made the suite
    // twice as long. More than two starved the timing-sensitive ones on a loaded two-core machine.
    maxWorkers: 2,
    projects: [
      // One module graph per worker, not per file (isolate: false): importing the app again for
      // each of ~100 files was two thirds of the tier's time (import 134 s of a 203 s run; 14 s
      // of 97 s without). A test must leave no module state behind (docs/DEVELOPMENT.md).
      {
        extends: true,
        test: { name: 'fast', include: INCLUDE, exclude: [...EXCLUDE, ...SLOW], isolate: false },
      },
      // Processes, browsers and installs: each file in its own module graph, as vitest's default.
      {
        extends: true,
        test: {
          name: 'slow',
          // A folder's test files, not its helpers (test/readme/readme.ts).
          include: SLOW.map((entry) => (entry.endsWith('/**') ? `${entry}/*.test.ts` : entry)),
          exclude: EXCLUDE,
        },
      },
    ],
  },
})
