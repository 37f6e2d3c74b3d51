import { defineConfig, devices } from '@playwright/test';
import {
  APP_SERVER_COMMAND,
  appServerEnv,
  BALANCED_SPECS,
  fakeBookProviders,
  LAPTOP,
  runDataDir,
  sharedConfig,
  TWO_BROWSER_JOURNEYS,
} from './playwright.shared';

export { chromiumFlags, FULL_CHROMIUM, PAGE_CHROMIUM } from './playwright.shared';

/**
 * Every browser test but the two-browser journeys, against ONE app server on a fresh embedded
 * database. The journeys run through two app servers behind HAProxy: playwright.balanced.config.ts.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const books = fakeBookProviders(Number(process.env.E2E_BOOKS_PORT ?? PORT + 99));
export const BASE_URL = `http://127.0.0.1:${PORT}`;
process.env.E2E_BASE_URL = BASE_URL;
/**
 * Specs whose checks do not change with the screen's width (the journeys, the forms' rules, sign-on,
 * the headers, the server's rendering, the service worker): the README's test command runs them on
 * the phone only, mobile-first; `npm run test:full` (TEST_FULL=1) at laptop width as well. The specs
 * about the screen (every page's fit, tap targets and axe, the layouts, long content, the cards) run
 * on both in every form.
 */
const ONE_WIDTH_IN_SHORT_FORM = [
  '**/journeys/**',
  '**/forms/**',
  '**/sso/**',
  '**/api-docs.spec.ts',
  '**/csp.spec.ts',
  '**/first-load.spec.ts',
  '**/privacy.spec.ts',
  '**/pwa.spec.ts',
  '**/routes.spec.ts',
  '**/server-rendering.spec.ts',
  '**/smoke.spec.ts',
];
/**
 * Specs checked at laptop width only, in every form: the phone project does not open them (a skip
 * inside a test comes after its fixtures: the phone once built accessibility.spec.ts's seller,
 * buyer and six photos, 23 s, to run none of its tests; the second campus started its server and
 * students, 11 s). The long-content spec sets every width itself.
 */
const LAPTOP_ONLY = [
  '**/accessibility.spec.ts',
  '**/content-extremes.spec.ts',
  '**/second-campus.spec.ts',
];
const full = process.env.TEST_FULL === '1';
/** Run by playwright.balanced.config.ts. */
const ignored = [...TWO_BROWSER_JOURNEYS, ...BALANCED_SPECS];

/** A fresh embedded database and outbox for every run (set E2E_KEEP_DATA=1 to keep it afterwards). */
const dataDir = runDataDir('cb-e2e-');

export default defineConfig({
  ...sharedConfig(BASE_URL, 'playwright.json'),
  testIgnore: ignored,
  // Two browsers at once against the one server: the server and a browser each wait on the other
  // much of the time (the journeys, forms and sign-on specs: 223 s with one, 174 s with two).
  workers: 2,
  // Two browsers, the server and its image work share two cores: a message can take seconds to
  // show while another spec's uploads are being encoded, so an assertion waits up to 20 s here.
  expect: { timeout: 20_000 },
  // The files run in the projects' order, each project's alphabetically, two at a time. The laptop's
  // come first: its pages.spec.ts is the longest file (150 s); last, it ran alone for its final
  // ~100 s while the other browser had nothing left (CI of 703208b). The phone's last files take
  // under a minute each.
  projects: [
    // A project's own list replaces the configuration's: both are given.
    { ...LAPTOP, testIgnore: [...ignored, ...(full ? [] : ONE_WIDTH_IN_SHORT_FORM)] },
    {
      name: 'phone',
      use: { ...devices['Pixel 5'], viewport: { width: 375, height: 800 } },
      testIgnore: [...ignored, ...LAPTOP_ONLY],
    },
  ],
  webServer: [
    books.webServer,
    {
      command: APP_SERVER_COMMAND,
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      // Minutes, not seconds, when the machine is shared with other test runs.
      timeout: 240_000,
      env: appServerEnv({ port: PORT, publicUrl: BASE_URL, dataDir, booksUrl: books.url }),
    },
  ],
});
