import { defineConfig } from 'vitest/config'

// npm run test:reliability: crash, concurrency, property-based bad input, soak, overload.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    globalSetup: ['test/reliability/build.ts'],
    testTimeout: 30 * 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
})
