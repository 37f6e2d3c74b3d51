import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, spawnServer, type ServerProcess } from '../support/server-process';

const PG_BIN = '/usr/lib/postgresql/15/bin';

export { freePort, stopServer, waitHealthy, type ServerProcess } from '../support/server-process';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Attempt limits high enough that the load of a reliability test never meets them. */
const NO_ATTEMPT_LIMITS = {
  RATE_LIMIT_SIGNIN_PER_IP: '1000000',
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: '1000000',
  RATE_LIMIT_SIGNUP_PER_IP: '1000000',
  RATE_LIMIT_MAIL_PER_IP: '1000000',
  RATE_LIMIT_MAIL_PER_ADDRESS: '1000000',
  RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000000',
};

/** The real server from its sources on `port`, not yet healthy (see waitHealthy). */
export function startServer(env: Record<string, string>, port: number): ServerProcess {
  return spawnServer(port, { env: { ...NO_ATTEMPT_LIMITS, ...env } });
}

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

/**
 * A PostgreSQL server of this test's own (never the shared one on 5432), which the test may stop
 * and start at will. Postgres refuses to run as root: the postgres user owns its folder.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-rel-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string) =>
    execFileSync('su', ['postgres', '-c', command], { stdio: 'pipe' });
  asPostgres(`${PG_BIN}/initdb -D ${data} --auth=trust -U postgres >/dev/null`);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    asPostgres(`${PG_BIN}/pg_ctl -D ${data} -o '${options}' -w -l ${dir}/log start`);
  const stop = () => asPostgres(`${PG_BIN}/pg_ctl -D ${data} -m fast -w stop`);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
