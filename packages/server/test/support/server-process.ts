import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../src/node-flags';

/**
 * Test and bench support: the real server as its own process, as in production. The one way the
 * ops tests, the process tests, the reliability tests and the bench start a server on a free port.
 */

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The sources, run through tsx (`npm run dev`, the e2e suite): one process, so kill -9 kills it all. */
export const SERVER_SOURCE = path.join(SERVER_ROOT, 'src/server.ts');
/** What `npm start` runs: the bundle `npm run build` writes (packages/server/scripts/build.mjs). */
export const SERVER_BUNDLE = path.join(SERVER_ROOT, 'dist/server.js');

/**
 * The entry a server starts from when the caller names none: the sources through tsx, or, with
 * TEST_SERVER_ENTRY=bundle (`npm test` and `npm run test:full` set it, right after their build),
 * the bundle `npm start` runs. The suites then start the code that ships, and each start costs
 * about half the CPU: tsx's loader reads and maps every source file again in each new process
 * (docs/operations.md, "The test commands").
 */
function defaultEntry(): string {
  if (process.env.TEST_SERVER_ENTRY !== 'bundle') return SERVER_SOURCE;
  if (!existsSync(SERVER_BUNDLE)) {
    throw new Error(`TEST_SERVER_ENTRY=bundle, but ${SERVER_BUNDLE} is not built (npm run build)`);
  }
  return SERVER_BUNDLE;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
}

export interface SpawnOptions {
  /** Added to this process's environment, over the production defaults and PORT. */
  env?: Record<string, string>;
  /** The port to listen on; a free one when omitted. */
  port?: number;
  /** A .ts file (SERVER_SOURCE) runs through tsx, a .js file (a bundle) in plain node; default: defaultEntry(). */
  entry?: string;
  /** Wraps the node command line, e.g. in `taskset` or a shell that sets the umask. */
  wrap?: (argv: string[]) => string[];
  cwd?: string;
}

const OUTPUT_KEPT = 1 << 20;

/** Starts the server without waiting: pair with waitHealthy, or watch it fail to start. */
export function spawnServer(port: number, options: SpawnOptions = {}): ServerProcess {
  const entry = options.entry ?? defaultEntry();
  const node = entry.endsWith('.ts')
    ? [process.execPath, ...SERVER_NODE_FLAGS, '--import', 'tsx', entry]
    : [process.execPath, ...SERVER_NODE_FLAGS, entry];
  const [command, ...args] = options.wrap ? options.wrap(node) : node;
  const child = spawn(command!, args, {
    cwd: options.cwd ?? SERVER_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last megabyte of what it printed: a server that logs every request (LOG_LEVEL info) through
  // a long bench run would otherwise grow this past the longest string Node can hold.
  let output = '';
  const keep = (d: Buffer) => {
    output += d;
    if (output.length > OUTPUT_KEPT * 2) output = output.slice(-OUTPUT_KEPT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, port, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/**
 * Resolves once /api/health answers 200, with the milliseconds waited; throws if the process exits
 * first. Generous by default: a busy 2-core machine has taken a minute to start a fresh embedded
 * database.
 */
export async function waitHealthy(
  server: ServerProcess,
  { timeoutMs = 120_000, pollMs = 20 } = {},
): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited ${server.child.exitCode}:\n${server.output()}`);
    }
    try {
      const res = await fetch(`${server.url}/api/health`);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  server.child.kill('SIGKILL');
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

/** SIGTERM (the graceful drain), then SIGKILL if it has not exited after killAfterMs. */
export async function stopServer(
  server: ServerProcess,
  killAfterMs = 10_000,
): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
  }
  const timer = setTimeout(() => server.child.kill('SIGKILL'), killAfterMs);
  const code = await server.exited;
  clearTimeout(timer);
  return code;
}

/** A server on a free port, healthy. */
export async function startServer(options: SpawnOptions = {}): Promise<ServerProcess> {
  const server = spawnServer(options.port ?? (await freePort()), options);
  await waitHealthy(server);
  return server;
}
