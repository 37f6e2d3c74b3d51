import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';

/**
 * The balanced run's PostgreSQL database (playwright.balanced.config.ts): created fresh on the server
 * of TEST_DATABASE_URL when the configuration is first loaded, dropped when the run's process exits
 * (after Playwright has stopped the app servers). psql runs the two statements: the configuration is
 * read synchronously, and the `exit` event allows nothing else.
 */

export const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** What the test workers read (Playwright loads the configuration again in each of them). */
const URL_VARIABLE = 'E2E_BALANCED_DATABASE_URL';
export const UNAVAILABLE_VARIABLE = 'E2E_BALANCED_UNAVAILABLE';

function psql(statement: string): { ok: true } | { ok: false; reason: string } {
  const run = spawnSync('psql', [ADMIN_URL, '-v', 'ON_ERROR_STOP=1', '-Atqc', statement], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.error) return { ok: false, reason: `psql could not run (${run.error.message})` };
  if (run.status !== 0)
    return { ok: false, reason: run.stderr.trim() || `psql exited ${run.status}` };
  return { ok: true };
}

/**
 * The database's URL, or why the balanced run cannot happen here (no HAProxy, no psql, no
 * PostgreSQL server): the run fails with it in CI and is skipped with it elsewhere.
 */
export function balancedDatabase(): { url: string } | { unavailable: string } {
  const known = process.env[URL_VARIABLE];
  if (known) return { url: known };
  const unavailable = process.env[UNAVAILABLE_VARIABLE];
  if (unavailable) return { unavailable };

  const missing = (why: string) => {
    process.env[UNAVAILABLE_VARIABLE] = why;
    return { unavailable: why };
  };
  if (!existsSync(HAPROXY)) {
    return missing(`HAProxy is not installed (${HAPROXY}; apt-get install haproxy)`);
  }
  const name = `cb_e2e_${randomUUID().replace(/-/g, '')}`;
  const created = psql(`CREATE DATABASE ${name}`);
  if (!created.ok) {
    return missing(
      `no PostgreSQL database could be created on ${ADMIN_URL} (TEST_DATABASE_URL): ${created.reason}`,
    );
  }
  if (!process.env.E2E_KEEP_DATA) {
    process.on('exit', () => {
      const dropped = psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      if (!dropped.ok) console.error(`Could not drop the database ${name}: ${dropped.reason}`);
    });
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  process.env[URL_VARIABLE] = url.toString();
  return { url: url.toString() };
}
