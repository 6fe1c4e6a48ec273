import { defineConfig } from 'vitest/config'

// Its own config, so that vitest does not take the repository's from the directory above.
export default defineConfig({ test: { include: ['*.test.ts'] } })
