import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The FAKE book providers (Open Library, Google Books) the server looks ISBNs up at: never the internet. */
const BOOKS_PORT = Number(process.env.E2E_BOOKS_PORT ?? PORT + 99);
const BOOKS_URL = `http://127.0.0.1:${BOOKS_PORT}`;
export const BASE_URL = `http://127.0.0.1:${PORT}`;
process.env.E2E_BASE_URL = BASE_URL;
/** A fresh embedded database and outbox for every run (set E2E_KEEP_DATA=1 to keep it afterwards). */
const givenDataDir = process.env.E2E_DATA_DIR;
const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), 'cb-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
if (!givenDataDir && !process.env.E2E_KEEP_DATA) {
  // Only the process that made the folder removes it, once the web server has been stopped.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

// Debian's Chromium; these flags keep it off the closed network (see shared/stack.md).
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests',
  fullyParallel: false,
  // A cold server on a busy 2-core machine: the first sign-ups and page loads can take seconds.
  timeout: 60_000,
  workers: 1,
  retries: 0,
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: '../../.tmp/playwright.json' }]]
    : 'list',
  use: {
    baseURL: BASE_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromiumFlags,
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  expect: { timeout: 10_000 },
  projects: [
    { name: 'phone', use: { ...devices['Pixel 5'], viewport: { width: 375, height: 800 } } },
    { name: 'laptop', use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: [
    {
      command: `node --import tsx ../server/test/support/fake-book-providers.cli.ts ${BOOKS_PORT}`,
      url: `${BOOKS_URL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'node --import tsx ../server/src/server.ts',
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      // Minutes, not seconds, when the machine is shared with other test runs.
      timeout: 240_000,
      env: {
        NODE_ENV: 'production',
        PORT: String(PORT),
        HOST: '127.0.0.1',
        PUBLIC_URL: BASE_URL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Every journey signs up fresh users from one IP: keep the attempt limits out of the way.
        // The browser shares the machine's cores: password checks at the requests' priority.
        PASSWORD_THREAD_NICE: '0',
        RATE_LIMIT_SIGNIN_PER_IP: '100000',
        RATE_LIMIT_SIGNIN_PER_ACCOUNT: '100000',
        RATE_LIMIT_SIGNUP_PER_IP: '100000',
        RATE_LIMIT_MAIL_PER_IP: '100000',
        RATE_LIMIT_MAIL_PER_ADDRESS: '100000',
        RATE_LIMIT_LISTINGS_PER_ACCOUNT: '100000',
        // A proof-of-work challenge the browser solves in a moment (forms/challenge.spec.ts).
        ALTCHA_COST: '1',
        ALTCHA_MAX_COUNTER: '50',
        OPEN_LIBRARY_URL: BOOKS_URL,
        OPEN_LIBRARY_COVERS_URL: BOOKS_URL,
        GOOGLE_BOOKS_URL: BOOKS_URL,
        GOOGLE_BOOKS_COVERS_URL: BOOKS_URL,
        GOOGLE_BOOKS_API_KEY: 'fake-key',
        // The campus moderator of journeys/moderation.spec.ts.
        MODERATOR_EMAILS: 'moderator@e2e.campus.edu',
        // Its reporters are accounts made a moment ago: they count toward the hide (decision 016).
        REPORT_MIN_ACCOUNT_AGE_DAYS: '0',
        // Not the default 14: the ratings page states the setting (journeys/ratings.spec.ts).
        RATING_REVEAL_DAYS: '10',
        // Every listing is a week from expiry and the expiry job runs every second, so a new
        // listing's reminder arrives at once (journeys/freshness.spec.ts).
        LISTING_LIFETIME_DAYS: '7',
        LISTING_EXPIRY_CHECK_MS: '1000',
        JOBS_POLL_MS: '1000',
      },
    },
  ],
});
