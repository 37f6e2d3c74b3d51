import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { balancedDatabase, HAPROXY } from './src/balanced-database';
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

/**
 * The two-browser journeys (a buyer's phone, a seller's laptop, live events) as production runs
 * several servers: TWO app servers on one fresh PostgreSQL database, sharing the session secret and
 * one DATA_DIR (uploads, outbox; the data-dir lock is the embedded database's only), behind HAProxy
 * with ops/haproxy/campus-books.cfg (round robin, no stickiness). The browsers talk to the balancer.
 * Needs HAProxy, psql and the PostgreSQL server of TEST_DATABASE_URL: without them the run fails in
 * CI and is skipped, with the reason, elsewhere.
 */
const PORT = Number(process.env.E2E_PORT ?? 3200);
const APP_PORTS = [PORT + 1, PORT + 2];
const books = fakeBookProviders(Number(process.env.E2E_BOOKS_PORT ?? PORT + 3));
const BASE_URL = `http://127.0.0.1:${PORT}`;
process.env.E2E_BASE_URL = BASE_URL;
const HAPROXY_CONFIG = path.resolve(import.meta.dirname, '../../ops/haproxy/campus-books.cfg');
/** HAProxy's health checks, as in production: on a busy machine a shorter time-out takes a slow server out. */
const CHECK_INTER_MS = 2000;

const database = balancedDatabase();
if ('unavailable' in database) {
  const message = `The balanced browser tests cannot run here:\n  ${database.unavailable}\n`;
  if (process.env.CI) throw new Error(`${message}CI installs HAProxy and PostgreSQL (.ci/run).`);
  console.warn(`\n*** ${message}*** SKIPPING them (outside CI only: there they fail). ***\n`);
}
const dataDir = runDataDir('cb-e2e-balanced-');

const appServers = APP_PORTS.map((port) => ({
  command: APP_SERVER_COMMAND,
  url: `http://127.0.0.1:${port}/api/health`,
  reuseExistingServer: false,
  // Minutes, not seconds, when the machine is shared with other test runs.
  timeout: 240_000,
  env: {
    ...appServerEnv({ port, publicUrl: BASE_URL, dataDir, booksUrl: books.url }),
    DATABASE_URL: 'url' in database ? database.url : '',
    // Two servers and the run's other PostgreSQL users (other suites) share max_connections.
    DATABASE_POOL_SIZE: '10',
    SESSION_SECRET: 'the-secret-both-app-servers-of-the-balanced-run-share',
  },
}));

const balancer = {
  command: `${HAPROXY} -db -f ${HAPROXY_CONFIG}`,
  // 200 once a server is up behind it (503 until then).
  url: `${BASE_URL}/api/health`,
  reuseExistingServer: false,
  timeout: 30_000,
  env: {
    CB_BIND: `127.0.0.1:${PORT}`,
    CB_APP1: `127.0.0.1:${APP_PORTS[0]}`,
    CB_APP2: `127.0.0.1:${APP_PORTS[1]}`,
    CB_CHECK_INTER: `${CHECK_INTER_MS}ms`,
  },
};

export default defineConfig({
  ...sharedConfig(BASE_URL, 'playwright-balanced.json'),
  // The journeys open their own phone (375 px) and laptop (1,280 px): they run from the laptop.
  // The balancer's own spec first and alone (it counts the balancer's turns: another browser's
  // requests would take some); then the journeys, two at a time (each its own students), as the
  // one-server run does: 84 s one at a time.
  workers: 2,
  projects: [
    { ...LAPTOP, name: 'balancer', testMatch: BALANCED_SPECS },
    // Without HAProxy or PostgreSQL only the balancer's spec runs, to say that it skipped.
    ...('url' in database
      ? [{ ...LAPTOP, testMatch: TWO_BROWSER_JOURNEYS, dependencies: ['balancer'] }]
      : []),
  ],
  webServer: 'url' in database ? [books.webServer, ...appServers, balancer] : [],
});
