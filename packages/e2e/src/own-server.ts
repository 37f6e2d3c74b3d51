import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerTarget } from './users';

/**
 * A server of a spec's own, beside the suite's (playwright.config.ts): its own embedded database and
 * outbox on a free port, for a journey that must restart the server, e.g. with the clock moved on
 * (TEST_CLOCK_OFFSET_DAYS, which the server takes only outside production: NODE_ENV=development here).
 * Nothing sleeps: a start waits for /api/health, a stop for the process's exit.
 */
export interface OwnServer extends ServerTarget {
  dataDir: string;
  /** Starts the server (again) on the same data and port, with these extra settings. */
  start(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and deletes its data. */
  dispose(): Promise<void>;
}

const SERVER = path.resolve(import.meta.dirname, '..', '..', 'server', 'src', 'server.ts');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output()}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function ownServer(): Promise<OwnServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-e2e-own-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };

  return {
    url,
    dataDir,
    outboxDir: path.join(dataDir, 'outbox'),
    async start(env = {}) {
      await stop();
      let output = '';
      const started = spawn(process.execPath, ['--import', 'tsx', SERVER], {
        cwd: path.dirname(SERVER),
        env: {
          ...process.env,
          NODE_ENV: 'development',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: url,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          BOOK_LOOKUP: 'off',
          RATE_LIMIT_SIGNUP_PER_IP: '100000',
          RATE_LIMIT_SIGNIN_PER_IP: '100000',
          RATE_LIMIT_MAIL_PER_IP: '100000',
          // Due jobs are looked for every 200 ms, and the expiry job runs every second.
          JOBS_POLL_MS: '200',
          LISTING_EXPIRY_CHECK_MS: '1000',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.stdout?.on('data', (d) => (output += d));
      started.stderr?.on('data', (d) => (output += d));
      child = started;
      await waitForHealth(url, started, () => output);
    },
    stop,
    async dispose() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
