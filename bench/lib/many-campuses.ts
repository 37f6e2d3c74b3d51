import http from 'node:http';
import os from 'node:os';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
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
  type CampusScenarioRow,
} from './campus-budgets';
import {
  benchCampusHost,
  benchCampusKeys,
  dropBenchCampusRoles,
  provisionBenchCampuses,
  registerBenchCampuses,
  serverConnections,
} from './campuses';
import { prepareDatabase, type PreparedDatabase } from './databases';
import { BROWSER_HEADERS, runLoad, scenarioRow } from './load';
import type { BenchOptions } from './options';
import {
  addressesOf,
  PAGE_SCENARIOS,
  SCENARIOS,
  type Scenario,
  type ScenarioContext,
} from './scenarios';
import { cpuMsOf, ROOT, startServer, waitUntilIdle, type RunningServer } from './server-process';
import { cacheFigures, withMetrics } from './server-metrics';

const log = (message: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** The per-campus scenarios (issue 45): health (the ceiling), the searches, listing by id, the landing pages. */
export const CAMPUS_SCENARIOS: Scenario[] = SCENARIOS.filter(
  (s) =>
    s.group === 'ceiling' ||
    s.group === 'search' ||
    s.group === 'by-id' ||
    s.group === 'semester' ||
    PAGE_SCENARIOS.includes(s.name),
);

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

/**
 * CPU time every `postgres` process of this machine has used so far, ms: the local PostgreSQL
 * server's share of a scenario (its backends live as long as the pools keep them). Other work on the
 * same server is counted too: read it on a quiet machine.
 */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const ms = cpuMsOf(Number(entry));
      if (Number.isFinite(ms)) total += ms;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * One GET with a Host header (fetch will not send one of its own choosing), its body read. It asks
 * as the load does (a browser's Accept-Encoding): a kept answer is compressed the first time an
 * encoding is asked for, so a warm pass without it left every listing's compressing to the measured
 * run (a fifth of its time at 100 campuses).
 */
function getAt(url: string, pathname: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...BROWSER_HEADERS, host };
    const request = http.get(`${url}${pathname}`, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
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

/** The warm pass's limits: at most this many requests at once, and this long per scenario. */
const WARM_CONCURRENCY = 32;
const WARM_LIMIT_MS = 120_000;

/**
 * Every campus asked each of a scenario's addresses once, before its warm-up: a campus's own
 * traffic keeps its caches warm, and the single campus's warm-up turns over all its addresses many
 * times, so the N campuses are compared in the same steady state, not on their first renders
 * (N × the addresses to fill). Returns what it sent, how long it took and whether it covered all.
 */
async function warmEveryCampus(
  url: string,
  addresses: readonly string[],
  hosts: readonly string[],
): Promise<{ requests: number; seconds: number; complete: boolean }> {
  const total = addresses.length * hosts.length;
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < total && performance.now() - started < WARM_LIMIT_MS) {
      const i = next++;
      // Address-major: consecutive requests go to different campuses, as in the measured run.
      const status = await getAt(
        url,
        addresses[Math.floor(i / hosts.length)]!,
        hosts[i % hosts.length]!,
      );
      if (status >= 500)
        throw new Error(`warm pass: ${hosts[i % hosts.length]} answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WARM_CONCURRENCY, total) }, worker));
  return {
    requests: Math.min(next, total),
    seconds: (performance.now() - started) / 1000,
    complete: next >= total,
  };
}

async function runScenarios(
  server: RunningServer,
  context: ScenarioContext,
  options: BenchOptions,
  hosts: readonly string[] | null,
  label: string,
): Promise<CampusScenarioRow[]> {
  const rows: CampusScenarioRow[] = [];
  let healthRps = NaN;
  for (const scenario of CAMPUS_SCENARIOS) {
    if (
      options.scenarios &&
      scenario.name !== 'health' &&
      !options.scenarios.includes(scenario.name)
    )
      continue;
    const load = scenario.load(context);
    if (!load) continue;
    if (scenario.name !== 'health') {
      const warm = await warmEveryCampus(
        server.url,
        addressesOf(load),
        hosts ?? [new URL(server.url).host],
      );
      log(
        `  ${label} ${scenario.name.padEnd(18)} warm pass: ${warm.requests} requests in ${warm.seconds.toFixed(1)} s${warm.complete ? '' : ' (stopped at the time limit: not every address warmed)'}`,
      );
    }
    await waitUntilIdle(server.url);
    // One campus's requests are built as the N campuses' are (a Host header set on each, by the
    // same code): the load generator shares the two cores, so it must cost the same in both runs.
    const spec = {
      requests: spreadOverHosts(load, hosts ?? [new URL(server.url).host], options.seed),
    };
    let cpuMs = NaN;
    let pgMs = NaN;
    const r = await runLoad(
      { url: server.url, connections: options.connections, duration: options.duration, ...spec },
      options.warmup,
      () => {
        const before = server.cpuMs();
        const pgBefore = postgresCpuMs();
        return () => {
          cpuMs = server.cpuMs() - before;
          pgMs = postgresCpuMs() - pgBefore;
        };
      },
    );
    if (scenario.name === 'health') healthRps = r.requestsPerSecond;
    const row: CampusScenarioRow = {
      ...scenarioRow(scenario, r, { healthRps, peakRssMb: server.peakRssMb(), cpuMs }),
      postgresCpuMsPerRequest: r.requests > 0 ? pgMs / r.requests : NaN,
    };
    rows.push(row);
    log(
      `  ${label} ${scenario.name.padEnd(18)} ${Math.round(row.requestsPerSecond).toString().padStart(6)} req/s  p99 ${row.p99.toFixed(1)} ms  CPU ${row.serverCpuMsPerRequest.toFixed(2)} ms/req (PostgreSQL ${row.postgresCpuMsPerRequest!.toFixed(2)})  errors ${row.errors}${row.errors ? ` ${JSON.stringify(row.statusCodes)}` : ''}  load ${row.loadAverage.toFixed(1)}`,
    );
    log(`  ${label} ${''.padEnd(18)} ${await cacheFigures(server.url, hosts?.[0] ?? null)}`);
  }
  return rows;
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
    env: withMetrics(prepared.env),
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
  const held = await serverConnections(options.postgresUrl, database);
  return { server, footprint: { campuses: keys.length, rssMb: rss, ...held } };
}

/**
 * `npm run bench -- --campuses N --sizes S` (PostgreSQL): one scratch database seeded with S
 * listings; the single-campus server on it (no directory: exactly today's installation) runs the
 * per-campus scenarios; then N campuses, each a schema holding a copy of those S listings, are
 * registered (first one, then all) and one app server serves them, its memory and connections read
 * with 1 and with N, and the same scenarios run with every request sent to a campus's host in turn.
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
  const cleanUp = async () => {
    await server?.stop();
    server = undefined;
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

    server = await startServer({
      dataDir: prepared.dataDir,
      env: withMetrics(prepared.env),
      logLevel: options.logLevel,
      pin: pinned,
    });
    const singleReady = server.readySeconds;
    log(`single campus (no directory): ready in ${singleReady.toFixed(2)} s`);
    const single = await runScenarios(server, context, options, null, '1 ');
    await server.stop();
    server = undefined;

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
    const many = await runScenarios(server, context, options, keys.map(benchCampusHost), `${n}`);
    const database = new URL(prepared.env.DATABASE_URL!).pathname.slice(1);
    const afterLoad = await serverConnections(options.postgresUrl, database);

    const comparisons = compareCampusRuns(single, many);
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
