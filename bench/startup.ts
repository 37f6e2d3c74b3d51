/**
 * The server's start-up time, as `npm start` starts it (node packages/server/dist/server.js, built by
 * `npm run build`): spawn to the first 200 from /api/health, and where the time went, from the
 * server's own "running" log line (loading the code, opening the database, building the app).
 *   node --import tsx bench/startup.ts --data-dir DIR [--runs 5] [--no-pin]
 * DIR is a DATA_DIR made by bench/generate/cli.ts. The server is pinned to one core, as in the bench.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  freePort,
  spawnServer,
  stopServer,
  waitHealthy,
} from '../packages/server/test/support/server-process';
import { canPin, pinned, ROOT, SERVER_BUNDLE, SERVER_CORE } from './lib/server-process';

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

async function startOnce(): Promise<{ readyMs: number; startup?: Startup }> {
  const server = spawnServer(await freePort(), {
    entry: path.join(ROOT, SERVER_BUNDLE),
    cwd: ROOT,
    wrap: pinned(pin),
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'info' },
  });
  const readyMs = await waitHealthy(server, { timeoutMs: 60_000 });
  const code = await stopServer(server);
  if (code !== 0) throw new Error(`The server exited with ${code} on SIGTERM:\n${server.output()}`);
  const line = server
    .output()
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
