import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = new URL('../../', import.meta.url).pathname;
/** The server gets core 0, the load generator (this process) core 1. */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

export function canPin(): boolean {
  return (
    spawnSync('taskset', ['-c', String(SERVER_CORE), 'true']).status === 0 &&
    spawnSync('nproc').stdout?.toString().trim() !== '1'
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Waits until the server answers /api/health quickly again: requests of a finished scenario whose
 * connections autocannon closed are still queued in the server (PGlite runs one query at a time), and
 * they must not be billed to the next scenario. Returns the seconds waited.
 */
export async function waitUntilIdle(url: string, maxSeconds = 60): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < maxSeconds * 1000) {
    const t = performance.now();
    try {
      const res = await fetch(`${url}/api/health`, {
        signal: AbortSignal.timeout(maxSeconds * 1000),
      });
      await res.arrayBuffer();
      if (res.ok && performance.now() - t < 50) break;
    } catch {
      // still busy
    }
    await sleep(100);
  }
  return (performance.now() - started) / 1000;
}

export interface RunningServer {
  url: string;
  pid: number;
  /** CPU time (user + system, all threads) the server process has used so far, in ms. */
  cpuMs(): number;
  /** Seconds from spawn to the first 200 from /api/health. */
  readySeconds: number;
  /** Peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Clock ticks are 100 per second on Linux (USER_HZ), whatever the kernel's own HZ. */
function cpuMsOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function vmHwmMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The server as `npm start` runs it: bundled by `npm run build` (packages/server/scripts/build.mjs). */
export const SERVER_BUNDLE = 'packages/server/dist/server.js';

/** Starts the production server as `npm start` does (one node process, pinned to its core). */
export async function startServer(options: {
  dataDir: string;
  env: Record<string, string>;
  logLevel: string;
  pin: boolean;
}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  if (!existsSync(`${ROOT}${SERVER_BUNDLE}`)) {
    throw new Error(
      `${SERVER_BUNDLE} is missing: run npm run build, or the bench without --no-build`,
    );
  }
  const node = [process.execPath, SERVER_BUNDLE];
  const [command, ...args] = options.pin ? ['taskset', '-c', String(SERVER_CORE), ...node] : node;
  const started = performance.now();
  const child: ChildProcess = spawn(command!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel,
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  let readySeconds = NaN;
  while (Number.isNaN(readySeconds)) {
    if (hasExited) throw new Error(`The server exited during start-up:\n${stderr}`);
    if (performance.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer /api/health within 60 s:\n${stderr}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) readySeconds = (performance.now() - started) / 1000;
    } catch {
      // not listening yet
    }
    if (Number.isNaN(readySeconds)) await sleep(20);
  }

  const pid = child.pid!;
  return {
    url,
    pid,
    readySeconds,
    peakRssMb: () => vmHwmMb(pid),
    cpuMs: () => cpuMsOf(pid),
    async stop() {
      if (hasExited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
