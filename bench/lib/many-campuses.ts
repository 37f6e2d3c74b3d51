import os from 'node:os';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCampusFile } from '../../packages/server/src/config/campus-file';
import { BENCH_CAMPUS_FILE } from '../generate/campus';
import {
  compareCampusRuns,
  connectionsBounded,
  memoryPerIdleCampusMb,
  renderCampusTable,
  spreadOverHosts,
  type CampusComparison,
  type CampusFootprint,
} from './campus-budgets';
import { getAt, runSideBySide } from './campus-rounds';
import {
  benchCampusHost,
  benchCampusKeys,
  dropBenchCampusRoles,
  provisionBenchCampuses,
  registerBenchCampuses,
  serverConnections,
} from './campuses';
import { prepareDatabase, type PreparedDatabase } from './databases';
import { runLoad } from './load';
import type { BenchOptions } from './options';
import type { ScenarioContext } from './scenarios';
import { ROOT, startServer, type RunningServer } from './server-process';
import { withMetrics } from './server-metrics';

const log = (message: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** The N campuses' server's application name in PostgreSQL (pg_stat_activity). */
const CAMPUSES_SERVER = 'campus-books-bench-campuses';

export interface ManyCampusesResult {
  startedAt: string;
  command: string;
  campuses: number;
  size: number;
  poolSize: number;
  loadAverage: number[];
  provisionSeconds: number;
  readySeconds: { single: number; one: number; many: number };
  comparisons: CampusComparison[];
  one: CampusFootprint;
  many: CampusFootprint;
  afterLoad: { pooled: number; listening: number };
  memoryPerIdleCampusMb: number;
  connectionsBounded: boolean;
}

/** Resident memory now (VmRSS), MB. */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Each campus once: its landing page, its newest listings and one listing (caches, shells, statements). */
async function touchEveryCampus(url: string, hosts: readonly string[], listingId: string) {
  for (const host of hosts) {
    for (const pathname of ['/', '/api/listing/get', `/api/listing/get/${listingId}`]) {
      const status = await getAt(url, pathname, host);
      if (status !== 200) throw new Error(`${host}${pathname} answered ${status}`);
    }
  }
}

/**
 * A server on the directory as it stands, each campus touched once, its memory and connections
 * read; then a short burst over every campus (the pools fill as far as they will) and the
 * connections again.
 */
async function footprint(
  prepared: PreparedDatabase,
  options: BenchOptions,
  keys: readonly string[],
  pinned: boolean,
): Promise<{ server: RunningServer; footprint: CampusFootprint }> {
  const server = await startServer({
    dataDir: prepared.dataDir,
    // Named in PostgreSQL's sessions (pg reads PGAPPNAME): the single campus's server, running
    // beside it on the same database, is not counted with it.
    env: withMetrics({ ...prepared.env, PGAPPNAME: CAMPUSES_SERVER }),
    logLevel: options.logLevel,
    pin: pinned,
  });
  const hosts = keys.map(benchCampusHost);
  await touchEveryCampus(server.url, hosts, prepared.seed.sampleListingIds[0]!);
  await sleep(1000);
  const rss = rssMb(server.pid);
  const database = new URL(prepared.env.DATABASE_URL!).pathname.slice(1);
  await runLoad(
    {
      url: server.url,
      connections: options.connections,
      duration: 3,
      requests: spreadOverHosts({ path: '/api/listing/get?searchTerm=calclus' }, hosts),
    },
    0,
  );
  const held = await serverConnections(options.postgresUrl, database, CAMPUSES_SERVER);
  return { server, footprint: { campuses: keys.length, rssMb: rss, ...held } };
}

/**
 * `npm run bench -- --campuses N --sizes S` (PostgreSQL): one scratch database seeded with S
 * listings and copied into N campus schemas; the single-campus server on it (started before any
 * campus is registered: no directory, exactly today's installation); then the N campuses registered
 * (first one, then all) and one app server serving them, its memory and connections read with 1 and
 * with N. The per-campus scenarios then run on both servers side by side, in turns (runSideBySide),
 * every request of the N campuses' runs sent to a campus's host in turn.
 * Returns 1 when a budget fails.
 */
export async function runManyCampuses(
  options: BenchOptions & { campuses: number },
  pinned: boolean,
  command: string,
): Promise<number> {
  const size = options.sizes[0]!;
  const n = options.campuses;
  const keys = benchCampusKeys(n);
  const config = readCampusFile(BENCH_CAMPUS_FILE);
  const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 30);
  const startedAt = new Date().toISOString();
  log(`${n} campuses × ${size.toLocaleString('en-US')} listings: generating the catalogue`);
  const prepared = await prepareDatabase('postgres', size, options);
  let server: RunningServer | undefined;
  let single: RunningServer | undefined;
  const cleanUp = async () => {
    await server?.stop();
    server = undefined;
    await single?.stop();
    single = undefined;
    await prepared.dispose();
    await dropBenchCampusRoles(options.postgresUrl, keys);
  };
  const interrupt = () => {
    log('interrupted: cleaning up');
    void cleanUp().then(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    log(
      `  generated in ${prepared.seed.seconds.toFixed(1)} s; copying it into ${n} campus schemas`,
    );
    const provisionStart = performance.now();
    await provisionBenchCampuses(prepared.env.DATABASE_URL!, keys, config, (done) => {
      if (done % 10 === 0 || done === n) log(`  ${done}/${n} campuses provisioned`);
    });
    const provisionSeconds = (performance.now() - provisionStart) / 1000;
    const context: ScenarioContext = {
      seed: prepared.seed,
      mainScript: null,
      mixed: null,
      cookie: null,
    };

    // The single campus's server starts before any campus is registered (no directory: exactly
    // today's installation, which reads the directory only at its start) and runs to the end, beside
    // the N campuses' server: each scenario is measured on both, in turns (runSideBySide).
    single = await startServer({
      dataDir: prepared.dataDir,
      env: withMetrics(prepared.env),
      logLevel: options.logLevel,
      pin: pinned,
    });
    const singleReady = single.readySeconds;
    log(`single campus (no directory): ready in ${singleReady.toFixed(2)} s`);

    await registerBenchCampuses(prepared.env.DATABASE_URL!, keys.slice(0, 1), config);
    const withOne = await footprint(prepared, options, keys.slice(0, 1), pinned);
    server = withOne.server;
    const oneReady = server.readySeconds;
    await server.stop();
    server = undefined;

    await registerBenchCampuses(prepared.env.DATABASE_URL!, keys.slice(1), config);
    const withMany = await footprint(prepared, options, keys, pinned);
    server = withMany.server;
    log(
      `directory of ${n}: ready in ${server.readySeconds.toFixed(2)} s; RSS ${withMany.footprint.rssMb.toFixed(0)} MB (1 campus: ${withOne.footprint.rssMb.toFixed(0)} MB)`,
    );
    const [singleRows, many] = await runSideBySide(
      [
        { label: '1 ', server: single, hosts: null },
        { label: `${n}`, server, hosts: keys.map(benchCampusHost) },
      ],
      context,
      options,
    );
    const database = new URL(prepared.env.DATABASE_URL!).pathname.slice(1);
    const afterLoad = await serverConnections(options.postgresUrl, database, CAMPUSES_SERVER);

    const comparisons = compareCampusRuns(singleRows, many);
    const perCampus = memoryPerIdleCampusMb(withOne.footprint, withMany.footprint);
    const bounded = connectionsBounded(withOne.footprint, withMany.footprint, poolSize);
    const result: ManyCampusesResult = {
      startedAt,
      command,
      campuses: n,
      size,
      poolSize,
      loadAverage: os.loadavg(),
      provisionSeconds,
      readySeconds: { single: singleReady, one: oneReady, many: server.readySeconds },
      comparisons,
      one: withOne.footprint,
      many: withMany.footprint,
      afterLoad,
      memoryPerIdleCampusMb: perCampus,
      connectionsBounded: bounded && afterLoad.pooled <= poolSize,
    };
    const dir = path.join(ROOT, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `campuses-${startedAt.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

    console.log(`\n${renderCampusTable(comparisons, n, size)}\n`);
    const mb = (f: CampusFootprint) => `${f.rssMb.toFixed(0)} MB`;
    const held = (f: { pooled: number; listening: number }) =>
      `${f.pooled} pooled + ${f.listening} LISTEN`;
    log(
      `memory per idle campus: ${perCampus.toFixed(2)} MB (RSS ${mb(withOne.footprint)} with 1 campus, ${mb(withMany.footprint)} with ${n}, each campus asked 3 pages)`,
    );
    log(
      `connections to PostgreSQL: ${held(withOne.footprint)} with 1 campus, ${held(withMany.footprint)} with ${n}, ${held(afterLoad)} after the ${n}-campus scenarios (pool ${poolSize}): ${result.connectionsBounded ? 'bounded' : 'NOT bounded'}`,
    );
    log(
      `ready in ${singleReady.toFixed(2)} s (no directory), ${oneReady.toFixed(2)} s (1 campus), ${server.readySeconds.toFixed(2)} s (${n}); ${n} campuses provisioned in ${provisionSeconds.toFixed(0)} s; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    const failed = comparisons.filter((c) => c.budgeted && !c.ok);
    log(
      failed.length === 0 && result.connectionsBounded
        ? `PASS: every per-campus scenario within 1.25× of one campus, connections bounded`
        : `FAIL: ${failed.map((c) => c.scenario).join(', ') || 'connections'}`,
    );
    log(`results written to ${file}`);
    return failed.length === 0 && result.connectionsBounded ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await cleanUp();
  }
}
