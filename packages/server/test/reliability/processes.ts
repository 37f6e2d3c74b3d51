import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/server.ts');
const PG_BIN = '/usr/lib/postgresql/15/bin';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  exited: Promise<number | null>;
  output(): string;
}

/** The real server (`node --import tsx src/server.ts`: one process, so kill -9 kills it all). */
export function startServer(env: Record<string, string>, port: number): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SIGNIN_PER_IP: '1000000',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '1000000',
      RATE_LIMIT_SIGNUP_PER_IP: '1000000',
      RATE_LIMIT_MAIL_PER_IP: '1000000',
      RATE_LIMIT_MAIL_PER_ADDRESS: '1000000',
      RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, base: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** Resolves once /api/health answers 200; throws if the process exits first. */
export async function waitHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited ${server.child.exitCode}:\n${server.output()}`);
    }
    try {
      const res = await fetch(`${server.base}/api/health`);
      if (res.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await server.exited;
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
