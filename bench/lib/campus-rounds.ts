import type { Request } from 'autocannon';
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { bestRound, CAMPUS_ROUNDS, roundOrder, spreadOverHosts } from './campus-budgets';
import type { CampusScenarioRow } from './campus-budgets';
import { BROWSER_HEADERS, runLoad, scenarioRow } from './load';
import type { BenchOptions } from './options';
import {
  addressesOf,
  isScenarioSelected,
  PAGE_SCENARIOS,
  SCENARIOS,
  type Scenario,
  type ScenarioContext,
} from './scenarios';
import { cpuMsOf, waitUntilIdle, type RunningServer } from './server-process';
import { cacheFigures } from './server-metrics';

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
export function getAt(url: string, pathname: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...BROWSER_HEADERS, host };
    const request = http.get(`${url}${pathname}`, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

/**
 * The warm pass's limits: at most this many requests at once, and this long per scenario. On a
 * machine where a course page's render took ~8 ms of the server's core, 120 s covered 14,337 of
 * 100 campuses' 20,000 course pages, and the rest were measured cold.
 */
const WARM_CONCURRENCY = 32;
const WARM_LIMIT_MS = 300_000;

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

/** A server the per-campus scenarios are measured on, and the hosts its requests go to (null: its own). */
export interface CampusSide {
  label: string;
  server: RunningServer;
  hosts: readonly string[] | null;
}

const hostsOf = (side: CampusSide) => side.hosts ?? [new URL(side.server.url).host];

/** One measured run of a scenario's load on one side: its row, logged. */
async function measure(
  side: CampusSide,
  scenario: Scenario,
  requests: Request[],
  options: BenchOptions,
  healthRps: number,
): Promise<CampusScenarioRow> {
  const { server } = side;
  await waitUntilIdle(server.url);
  let cpuMs = NaN;
  let pgMs = NaN;
  const r = await runLoad(
    { url: server.url, connections: options.connections, duration: options.duration, requests },
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
  const row: CampusScenarioRow = {
    ...scenarioRow(scenario, r, {
      healthRps: scenario.name === 'health' ? r.requestsPerSecond : healthRps,
      peakRssMb: server.peakRssMb(),
      cpuMs,
    }),
    postgresCpuMsPerRequest: r.requests > 0 ? pgMs / r.requests : NaN,
  };
  log(
    `  ${side.label} ${scenario.name.padEnd(18)} ${Math.round(row.requestsPerSecond).toString().padStart(6)} req/s  p99 ${row.p99.toFixed(1)} ms  CPU ${row.serverCpuMsPerRequest.toFixed(2)} ms/req (PostgreSQL ${row.postgresCpuMsPerRequest!.toFixed(2)})  errors ${row.errors}${row.errors ? ` ${JSON.stringify(row.statusCodes)}` : ''}  load ${row.loadAverage.toFixed(1)}`,
  );
  return row;
}

/**
 * The per-campus scenarios on both sides, side by side: for each scenario, every campus of each
 * side warmed, then CAMPUS_ROUNDS measured rounds, one side after the other, the order swapped each
 * round (roundOrder), and each side's best round kept (bestRound). Both servers run throughout, so
 * a figure is compared with the other side's taken a few seconds before or after it, not with one
 * taken minutes earlier on a machine whose speed has moved since (docs/performance.md).
 */
export async function runSideBySide(
  sides: readonly [CampusSide, CampusSide],
  context: ScenarioContext,
  options: BenchOptions,
): Promise<[CampusScenarioRow[], CampusScenarioRow[]]> {
  const rows: [CampusScenarioRow[], CampusScenarioRow[]] = [[], []];
  const healthRps = [NaN, NaN];
  for (const scenario of CAMPUS_SCENARIOS) {
    if (!isScenarioSelected(options, scenario.name)) continue;
    const load = scenario.load(context);
    if (!load) continue;
    if (scenario.name !== 'health') {
      for (const side of sides) {
        const warm = await warmEveryCampus(side.server.url, addressesOf(load), hostsOf(side));
        log(
          `  ${side.label} ${scenario.name.padEnd(18)} warm pass: ${warm.requests} requests in ${warm.seconds.toFixed(1)} s${warm.complete ? '' : ' (stopped at the time limit: not every address warmed)'}`,
        );
      }
    }
    // One campus's requests are built as the N campuses' are (a Host header set on each, by the
    // same code): the load generator shares the two cores, so it must cost the same on both sides.
    const requests = sides.map((side) => spreadOverHosts(load, hostsOf(side), options.seed));
    const rounds: [CampusScenarioRow[], CampusScenarioRow[]] = [[], []];
    for (let round = 0; round < CAMPUS_ROUNDS; round++) {
      for (const i of roundOrder(round)) {
        rounds[i].push(await measure(sides[i], scenario, requests[i]!, options, healthRps[i]!));
      }
    }
    for (const i of [0, 1] as const) {
      const best = bestRound(rounds[i]);
      if (scenario.name === 'health') healthRps[i] = best.requestsPerSecond;
      rows[i].push(best);
      log(
        `  ${sides[i].label} ${''.padEnd(18)} ${await cacheFigures(sides[i].server.url, sides[i].hosts?.[0] ?? null)}`,
      );
    }
  }
  return rows;
}
