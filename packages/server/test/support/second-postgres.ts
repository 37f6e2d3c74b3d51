import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/** A PostgreSQL cluster of its own on another port (a campus's move needs a second server). */
export interface SecondPostgres {
  /** Its `postgres` database, as the `postgres` superuser. */
  url: string;
  stop(): void;
}

/** The newest Debian PostgreSQL's binaries, or the ones on the PATH; null when there are none. */
export function postgresBinaries(): string | null {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(path.join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(a) - Number(b));
    if (versions.length > 0) return path.join(debian, versions.at(-1)!, 'bin');
  }
  try {
    return path.dirname(execFileSync('which', ['initdb'], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * initdb and pg_ctl start in a temporary folder, listening on 127.0.0.1 at a free port with its
 * socket in that folder, trusting local connections. PostgreSQL refuses to run as root: as root the
 * binaries run as the `postgres` OS user (as .ci/run's fallback does).
 */
export async function startSecondPostgres(bin: string): Promise<SecondPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-second-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), -1);
  const run = (command: string) =>
    asRoot
      ? execFileSync('su', ['postgres', '-c', command], { stdio: 'pipe' })
      : execFileSync('sh', ['-c', command], { stdio: 'pipe' });
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(`${bin}/initdb -D ${data} --auth=trust -U postgres -E UTF8 --no-sync`);
  run(
    `${bin}/pg_ctl -D ${data} -l ${dir}/log -w -o "-p ${port} -k ${dir} ` +
      `-c listen_addresses=127.0.0.1 -c fsync=off" start`,
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(`${bin}/pg_ctl -D ${data} -m fast -w stop`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
