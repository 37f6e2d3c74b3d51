import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: real server processes killed, databases stopped, disks filled.
 * Slow and disruptive, so not part of `npm test`. Files run one at a time.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    root: 'packages/server',
    // The enumeration timing runs again here with 100 tries per side (10 in npm test).
    include: ['test/reliability/**/*.reliability.ts', 'test/security/enumeration.test.ts'],
    env: { TIMING_TRIES: '100' },
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/use-default-campus.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
