/**
 * The server's start-up time, as `npm start` starts it (node packages/server/dist/server.js, built by
 * `npm run build`): spawn to the first 200 from /api/health, and where the time went, from the
 * server's own "running" log line (loading the code, opening the database, building the app).
 *   node --import tsx bench/startup.ts --data-dir DIR [--runs 5] [--no-pin]
 * DIR is a DATA_DIR made by bench/generate/cli.ts. The server is pinned to one core, as in the bench.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { canPin, ROOT, SERVER_BUNDLE, SERVER_CORE } from './lib/server-process';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '5' },
    'no-pin': { type: 'boolean', default: false },
  },
});
if (!values['data-dir']) throw new Error('Give --data-dir');
if (!existsSync(path.join(ROOT, SERVER_BUNDLE))) throw new Error(`Run npm run build first`);
const dataDir = path.resolve(values['data-dir']);
const runs = Number(values.runs);
const pin = !values['no-pin'] && canPin();

/** The server's milestones, in ms since its process started (its "running" log line). */
interface Startup {
  entryLoaded: number;
  appCodeLoaded: number;
  databaseOpened: number;
  listening: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startOnce(): Promise<{ readyMs: number; startup?: Startup }> {
  const port = await freePort();
  const node = [process.execPath, SERVER_BUNDLE];
  const [command, ...args] = pin ? ['taskset', '-c', String(SERVER_CORE), ...node] : node;
  const started = performance.now();
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let readyMs = NaN;
  while (Number.isNaN(readyMs)) {
    if (child.exitCode !== null) throw new Error(`The server exited during start-up:\n${stderr}`);
    if (performance.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer /api/health within 60 s:\n${stderr}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      await res.arrayBuffer();
      if (res.ok) readyMs = performance.now() - started;
    } catch {
      // not listening yet
    }
    if (Number.isNaN(readyMs)) await sleep(20);
  }
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`The server exited with ${code} on SIGTERM:\n${stderr}`);
  const line = stdout
    .split('\n')
    .map((l) => {
      try {
        return JSON.parse(l) as { startup?: Startup };
      } catch {
        return {};
      }
    })
    .find((l) => l.startup);
  return { readyMs, startup: line?.startup };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

console.log(
  `${SERVER_BUNDLE} on ${dataDir}, ${pin ? `pinned to core ${SERVER_CORE}` : 'not pinned'}, ${runs} starts`,
);
const results: { readyMs: number; startup?: Startup }[] = [];
for (let i = 0; i < runs; i += 1) {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const result = await startOnce();
  results.push(result);
  console.log(
    `  ${s(result.readyMs)} spawn to health${milestones(result.startup)}; load before: ${load}`,
  );
}

function milestones(p: Startup | undefined) {
  if (!p) return '';
  return (
    ` (in the server: entry loaded ${s(p.entryLoaded)}, app code loaded ${s(p.appCodeLoaded)},` +
    ` database opened ${s(p.databaseOpened)}, listening ${s(p.listening)})`
  );
}

const phases = results.flatMap((r) => (r.startup ? [r.startup] : []));
const medianOf = (key: keyof Startup) => median(phases.map((p) => p[key]));
console.log(
  `median ${s(median(results.map((r) => r.readyMs)))} spawn to health` +
    (phases.length
      ? milestones({
          entryLoaded: medianOf('entryLoaded'),
          appCodeLoaded: medianOf('appCodeLoaded'),
          databaseOpened: medianOf('databaseOpened'),
          listening: medianOf('listening'),
        })
      : ''),
);
