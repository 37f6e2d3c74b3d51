import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  freePort,
  spawnServer,
  stopServer,
  waitHealthy,
} from '../../packages/server/test/support/server-process';

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

/**
 * CPU time (user + system, all threads) process `pid` has used so far, in ms; NaN once it is gone.
 * Clock ticks are 100 per second on Linux (USER_HZ), whatever the kernel's own HZ.
 */
export function cpuMsOf(pid: number): number {
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

/** Runs `argv` on the server's core when pinning. */
export const pinned = (pin: boolean) => (argv: string[]) =>
  pin ? ['taskset', '-c', String(SERVER_CORE), ...argv] : argv;

/**
 * With BENCH_CPU_PROFILE_DIR set, each server the bench starts writes a V8 CPU profile there when it
 * stops (`node --cpu-prof`; open the `.cpuprofile` in a browser's performance panel for the flame
 * graph). Node refuses the flag in NODE_OPTIONS, so it is given to the server's own command.
 */
export const profiled = (argv: string[]): string[] => {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  if (!dir) return argv;
  const [node, ...rest] = argv;
  return [node!, '--cpu-prof', `--cpu-prof-dir=${dir}`, ...rest];
};

/** Starts the production server as `npm start` does (one node process, pinned to its core). */
export async function startServer(options: {
  dataDir: string;
  env: Record<string, string>;
  logLevel: string;
  pin: boolean;
}): Promise<RunningServer> {
  if (!existsSync(`${ROOT}${SERVER_BUNDLE}`)) {
    throw new Error(
      `${SERVER_BUNDLE} is missing: run npm run build, or the bench without --no-build`,
    );
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawnServer(port, {
    entry: `${ROOT}${SERVER_BUNDLE}`,
    cwd: ROOT,
    wrap: (argv) => pinned(options.pin)(profiled(argv)),
    env: {
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel,
      // The mixed scenario's one seller creates ~25 listings a second: far past the 20 an hour an
      // account may (an abuse control the benchmark is not about; its 429s counted as errors).
      RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000000',
      ...options.env,
    },
  });
  const readySeconds = (await waitHealthy(server, { timeoutMs: 60_000 })) / 1000;
  const pid = server.child.pid!;
  return {
    url,
    pid,
    readySeconds,
    peakRssMb: () => vmHwmMb(pid),
    cpuMs: () => cpuMsOf(pid),
    async stop() {
      await stopServer(server);
    },
  };
}
