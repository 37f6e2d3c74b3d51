import { defineConfig } from 'vitest/config';

/**
 * The generator's smoke test and the bench's own logic (percentiles, budgets), run on their own
 * (`npx vitest run --config bench/vitest.config.ts`), not by npm test.
 */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['generate/**/*.test.ts', 'lib/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
