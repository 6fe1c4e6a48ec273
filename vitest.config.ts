import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The reliability suite has its own command (npm run test:reliability).
    exclude: ['test/reliability/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
