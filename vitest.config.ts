import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Server tests run twice: on embedded PGlite and on a PostgreSQL server. The PostgreSQL run needs
 * TEST_DATABASE_URL (a database the tests may create and drop databases from); .ci/run sets it.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  if (process.env.CI === 'true') {
    throw new Error(
      'CI=true but TEST_DATABASE_URL is not set: the PostgreSQL tests must run in CI.',
    );
  }
  console.warn(
    '\n*** TEST_DATABASE_URL is not set: SKIPPING the server tests on PostgreSQL (PGlite only). ***\n',
  );
}

/**
 * `npm test` (CI) runs the short form; `npm run test:full` sets TEST_FULL=1 and runs everything
 * the short form leaves out (README; docs/operations.md, "The test commands"):
 * - the upgrade from the previous release (project `upgrade`: it clones and builds 0.2.0, minutes on a
 *   new machine). The short form keeps a lighter check of the same path on both engines: migration
 *   0018 run over a database at 0.2.0's last migration (src/db/migrator.test.ts) and 0.2.0's backup
 *   restored by this code (src/ops/restore-older-archive.test.ts).
 * - the second engine's run of the slowest sweep below: PGlite only in the short form, both in the
 *   full one.
 * - the upload and image suites' stores on their second engine: the local disk on PGlite and S3 on
 *   PostgreSQL in the short form, both on each in the full one (test/support/upload-test-app.ts).
 */
const full = process.env.TEST_FULL === '1';
const oneEngineInShortForm = [
  // Every route with a path parameter × near-miss ids: thousands of requests.
  'test/security/id-params.test.ts',
];
if (!full && !process.env.VITEST_WORKER_ID) {
  console.log(
    `Short form: the upgrade from the previous release, ${oneEngineInShortForm.join(', ')} on PostgreSQL and the upload suites' local disk on PostgreSQL and S3 on PGlite run in npm run test:full.`,
  );
}

// The tests share two cores with a browser, databases and each other: password checks run at the
// requests' priority here (every app server a test starts inherits it), not the production default.
process.env.PASSWORD_THREAD_NICE ??= '0';
// Nor do the servers they start warm up before listening (ops/warm-up.ts; 1.5 s each on
// PostgreSQL by default), for first seconds of traffic no test measures. The browser tests' servers
// keep the default.
process.env.WARM_UP_MS ??= '0';

/**
 * Test files that replace a module (`vi.mock`): they need modules of their own. Every other server
 * test file shares its worker's modules with the files that ran there before it (`isolate: false`):
 * importing the app once per worker instead of once per file saves minutes of CPU time.
 */
const ownModules = ['src/features/accounts/password-reset.abuse.test.ts'];

/**
 * Every server suite's: the test campus, passwords hashed at a test's cost (test/cheap-passwords.ts),
 * and the file's temporary folders removed after it (test/temporary-folders.ts).
 */
const serverSetupFiles = [
  'test/use-default-campus.ts',
  'test/cheap-passwords.ts',
  'test/remove-temporary-folders.ts',
];

const serverProjects = (engine: 'pglite' | 'postgres'): TestProjectInlineConfiguration[] => {
  const test = {
    root: 'packages/server',
    env: { TEST_DB_ENGINE: engine },
    globalSetup: ['test/global-setup.ts'],
    setupFiles: serverSetupFiles,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  };
  return [
    {
      test: {
        ...test,
        name: `server:${engine}`,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        exclude: [...ownModules, ...(engine === 'postgres' && !full ? oneEngineInShortForm : [])],
        isolate: false,
      },
    },
    { test: { ...test, name: `server:${engine}:own-modules`, include: ownModules } },
  ];
};

/**
 * The second campus (issue 42): a representative set of the API's suites also runs on the fictional
 * Pacific Crest campus (other schools, subjects, majors, meetup spots, time zone, a school e-mail
 * domain), on PGlite only to keep CI short. Each reads the campus's values from activeCampus(), so
 * it passes on both campuses.
 */
const secondCampusFiles = [
  'src/features/accounts/sign-up.test.ts',
  'src/features/listings/listings.routes.test.ts',
  'src/features/search/search.test.ts',
  'src/features/courses/courses.routes.test.ts',
  'src/features/meetups/meetups.test.ts',
  'src/features/alerts/alerts.test.ts',
  'src/features/alerts/alerts.api.test.ts',
  'src/features/docs/docs.routes.test.ts',
];
const secondCampus: TestProjectInlineConfiguration = {
  test: {
    root: 'packages/server',
    name: 'server:second-campus',
    env: { TEST_DB_ENGINE: 'pglite', TEST_CAMPUS_FILE: 'campus/examples/pacific-crest.yaml' },
    globalSetup: ['test/global-setup.ts'],
    setupFiles: serverSetupFiles,
    include: secondCampusFiles,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
};

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: a single one on a 2-core machine. The
    // server's tests mostly wait on a database, a child server or HTTP, so more files run at a time
    // than there are cores: on two cores, the whole run (both engines) took 534 s with two workers
    // and 487 s with three.
    maxWorkers: Math.max(3, availableParallelism()),
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.tmp/vitest.json' },
    projects: [
      {
        test: {
          name: 'common',
          root: 'packages/common',
          include: ['src/**/*.test.ts'],
          setupFiles: ['../server/test/use-default-campus.ts'],
        },
      },
      // The web app's pure logic (redirect checks, form helpers); its UI is tested in a browser (e2e).
      {
        test: {
          name: 'web',
          root: 'packages/web',
          include: ['src/**/*.test.ts'],
          // The campus the app takes from the server: the default campus file's.
          setupFiles: ['src/test/use-default-campus.ts'],
        },
      },
      ...serverProjects('pglite'),
      ...(postgresUrl ? serverProjects('postgres') : []),
      secondCampus,
      // Three real app servers behind HAProxy on the PostgreSQL server (TEST_DATABASE_URL, or the
      // local one on 127.0.0.1:5432); skipped, with a message, when HAProxy is not installed.
      {
        test: {
          name: 'load-balancer',
          root: 'packages/server',
          setupFiles: serverSetupFiles,
          include: ['test/reliability/load-balancer.quick.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      // Two app servers behind HAProxy: a conversation's event stream across servers and through a
      // kill -9 (the short form; the full one runs in test:reliability). Skipped, with a message,
      // when HAProxy is not installed.
      {
        test: {
          name: 'event-streams',
          root: 'packages/server',
          setupFiles: serverSetupFiles,
          include: ['test/reliability/conversation-streams.quick.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // Single sign-on (OIDC) through two app servers behind HAProxy: the callback on the other
      // server than the start (the short form; the full one runs in test:reliability). Skipped,
      // with a message, when HAProxy is not installed.
      {
        test: {
          name: 'sso-balancer',
          root: 'packages/server',
          setupFiles: serverSetupFiles,
          include: ['test/reliability/sso-balancer.quick.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The previous release (built from its commit in a temporary clone, cached under the OS tmpdir)
      // filled through its API, upgraded in place on both engines and as two servers on PostgreSQL,
      // and its backup restored into this code (docs/operations.md, "Upgrades"). The PostgreSQL half
      // needs TEST_DATABASE_URL. In npm run test:full only (see `full` above).
      ...(full
        ? [
            {
              test: {
                name: 'upgrade',
                root: 'packages/server',
                setupFiles: ['test/use-default-campus.ts'],
                include: ['test/upgrade/*.upgrade.ts'],
                testTimeout: 600_000,
                hookTimeout: 900_000,
              },
            },
          ]
        : []),
      // nginx with a self-signed certificate in front of two app servers (ops/nginx/campus-books.conf);
      // skipped, with a message, when nginx is not installed.
      {
        test: {
          name: 'reverse-proxy',
          root: 'packages/server',
          setupFiles: serverSetupFiles,
          include: ['test/reliability/reverse-proxy.nginx.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
