import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';

/**
 * What both browser-test configurations share: playwright.config.ts (one app server on the embedded
 * database) and playwright.balanced.config.ts (two app servers on PostgreSQL behind HAProxy).
 */

/**
 * Debian's Chromium, the browser itself (package chromium): the specs of what only a browser with its
 * whole shell does (the installed app's background sync, pwa.spec.ts) run in it. CHROMIUM_PATH
 * points elsewhere.
 */
export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Every other spec's browser: the same Chromium's headless shell (package chromium-headless-shell,
 * the build Playwright itself runs headless tests in), the same engine without the browser's
 * window, tabs and profile services. On two cores it took a fifth to a third less time for the
 * same specs (docs/decisions/025-headless-shell-for-page-specs.md). Without the package, or with
 * CHROMIUM_PATH set, the full browser runs every spec.
 */
export const PAGE_CHROMIUM =
  process.env.CHROMIUM_HEADLESS_PATH ??
  (process.env.CHROMIUM_PATH === undefined && existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : FULL_CHROMIUM);

// These flags keep Chromium off the closed network (see shared/stack.md).
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The journeys with two browsers at once (a buyer's phone, a seller's laptop) and live events: they
 * run through the balancer, in playwright.balanced.config.ts only, so the suite's time does not grow.
 */
export const TWO_BROWSER_JOURNEYS = [
  '**/journeys/messages.spec.ts',
  '**/journeys/seen.spec.ts',
  '**/journeys/message-photos.spec.ts',
  '**/journeys/ratings.spec.ts',
  '**/journeys/bundle-offer.spec.ts',
  '**/journeys/bundle-offer-from-listing.spec.ts',
];
/** The balanced configuration's own specs (the balancer's round robin, streams across servers). */
export const BALANCED_SPECS = ['**/balanced/**/*.spec.ts'];

/**
 * A fresh folder for the servers' files (embedded database, uploads, outbox) for every run, exported
 * as E2E_DATA_DIR to the test workers (set E2E_KEEP_DATA=1 to keep it afterwards). Playwright loads
 * the configuration again in every worker: they find it in the environment.
 */
export function runDataDir(prefix: string): string {
  const given = process.env.E2E_DATA_DIR;
  const dir = given ?? mkdtempSync(path.join(tmpdir(), prefix));
  process.env.E2E_DATA_DIR = dir;
  if (!given && !process.env.E2E_KEEP_DATA) {
    // Only the process that made the folder removes it, once the web servers have been stopped.
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return dir;
}

/** The FAKE book providers (Open Library, Google Books) the servers look ISBNs up at: never the internet. */
export function fakeBookProviders(port: number) {
  return {
    url: `http://127.0.0.1:${port}`,
    webServer: {
      command: `node --import tsx ../server/test/support/fake-book-providers.cli.ts ${port}`,
      url: `http://127.0.0.1:${port}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  };
}

/** Runs the server from its sources, as `npm run dev` does (the build is the web app's). */
export const APP_SERVER_COMMAND = 'node --import tsx ../server/src/server.ts';

/** The settings of every app server under test; each configuration adds where its data lives. */
export function appServerEnv(options: {
  port: number;
  publicUrl: string;
  dataDir: string;
  booksUrl: string;
}): Record<string, string> {
  const { port, publicUrl, dataDir, booksUrl } = options;
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
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
    OPEN_LIBRARY_URL: booksUrl,
    OPEN_LIBRARY_COVERS_URL: booksUrl,
    GOOGLE_BOOKS_URL: booksUrl,
    GOOGLE_BOOKS_COVERS_URL: booksUrl,
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
  };
}

/** The run's settings but for its servers and specs. `report` names CI's JSON report (in .tmp/). */
export function sharedConfig(baseURL: string, report: string): PlaywrightTestConfig {
  return {
    testDir: 'tests',
    fullyParallel: false,
    // A cold server on a busy 2-core machine: the first sign-ups and page loads can take seconds,
    // and a journey of a dozen pages a minute and more when two browsers share slow cores.
    timeout: 120_000,
    workers: 1,
    retries: 0,
    reporter: process.env.CI
      ? [['list'], ['json', { outputFile: `../../.tmp/${report}` }]]
      : 'list',
    use: {
      baseURL,
      launchOptions: {
        executablePath: PAGE_CHROMIUM,
        args: chromiumFlags,
      },
      trace: 'off',
      screenshot: 'only-on-failure',
    },
    expect: { timeout: 10_000 },
  };
}

export const LAPTOP = { name: 'laptop', use: { viewport: { width: 1280, height: 800 } } };
