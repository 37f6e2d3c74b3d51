import autocannon, { type Options, type Request } from 'autocannon';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioRow } from './results';
import type { ScenarioGroup } from './scenarios';
import { percentile } from './stats';

/** What a browser sends; without it the server is measured on a path no visitor takes. */
export const BROWSER_HEADERS = { 'accept-encoding': 'br, gzip', accept: '*/*' };

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  /** Socket errors + timeouts + answers other than 2xx. */
  errors: number;
  non2xx: number;
  /** Answers by HTTP status, e.g. { "200": 5120, "429": 3 }. */
  statusCodes: Record<string, number>;
  /** Average bytes per response as received (compressed if the server compressed). */
  bytesPerResponse: number;
  /** What produced the load (wrk asked for but not installed: autocannon, said so). */
  generator: LoadGenerator;
}

/**
 * autocannon (the default: dynamic requests, every status counted) or wrk, for a fixed path whose
 * answers are large: autocannon turns every answer's body into a string, which caps it near 95 MB/s
 * (~1,100 answers a second of the 87 KB main script) while the server could send twenty times more.
 */
export type LoadGenerator = 'autocannon' | 'wrk' | 'autocannon (wrk not installed)';

/** Whether wrk (Debian's package `wrk`) is on the PATH. */
export const hasWrk = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

export interface LoadSpec {
  url: string;
  connections: number;
  duration: number;
  /** A fixed path, or dynamic requests (setupRequest / onResponse). */
  path?: string;
  requests?: Request[];
  headers?: Record<string, string>;
  /** wrk for a fixed path when installed; autocannon otherwise. */
  generator?: 'autocannon' | 'wrk';
}

/** autocannon's result, and every answer's latency in ms as measured (not rounded down). */
interface AutocannonRun {
  result: autocannon.Result;
  latenciesMs: number[];
}

/**
 * One autocannon run. Its own latency histogram keeps whole milliseconds (each answer's time rounded
 * down): a p99 of 7 against 9 ms read as 1.29 × when the answers took 7.9 and 9.0 ms (1.14 ×). The
 * percentiles are therefore taken from each answer's time as autocannon measured it (its `response`
 * event: every answer, as its histogram counts them).
 */
async function runOnce(spec: LoadSpec, duration: number): Promise<AutocannonRun> {
  // autocannon takes the path from the URL (a top-level `path` option is silently ignored).
  const options: Options = {
    url: spec.path ? `${spec.url}${spec.path}` : spec.url,
    connections: spec.connections,
    duration,
    pipelining: 1,
    timeout: 10,
    headers: { ...BROWSER_HEADERS, ...spec.headers },
    ...(spec.requests ? { requests: spec.requests } : {}),
  };
  const latenciesMs: number[] = [];
  // Without a callback autocannon gives its instance, which is also its result's promise.
  const instance = autocannon(options) as unknown as autocannon.Instance &
    PromiseLike<autocannon.Result>;
  instance.on('response', (_client, _status, _bytes, ms) => {
    latenciesMs.push(ms);
  });
  return { result: await instance, latenciesMs };
}

const WRK_SUMMARY_SCRIPT = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'wrk-summary.lua',
);

interface WrkSummary {
  requests: number;
  durationUs: number;
  bytes: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  statusErrors: number;
  timeouts: number;
  p50Us: number;
  p99Us: number;
}

/** One wrk run on the load generator's core (this process's), one thread, the same headers. */
function runWrk(spec: LoadSpec & { path: string }, duration: number): WrkSummary {
  const headers = Object.entries({ ...BROWSER_HEADERS, ...spec.headers }).flatMap(
    ([name, value]) => ['-H', `${name}: ${value}`],
  );
  const args = ['-t1', `-c${spec.connections}`, `-d${duration}s`, '--timeout', '10s'];
  const run = spawnSync(
    'wrk',
    [...args, ...headers, '-s', WRK_SUMMARY_SCRIPT, `${spec.url}${spec.path}`],
    { encoding: 'utf8', timeout: (duration + 30) * 1000 },
  );
  const line = run.stdout?.split('\n').find((l) => l.startsWith('{"requests"'));
  if (run.status !== 0 || !line) {
    throw new Error(
      `wrk failed (${run.status}): ${(run.stderr || run.stdout || '').slice(0, 300)}`,
    );
  }
  return JSON.parse(line) as WrkSummary;
}

async function runLoadWithWrk(
  spec: LoadSpec & { path: string },
  warmup: number,
  measure: () => () => void,
): Promise<LoadResult> {
  if (warmup > 0) runWrk(spec, warmup);
  const done = measure();
  const r = runWrk(spec, spec.duration);
  done();
  const socketErrors = r.connectErrors + r.readErrors + r.writeErrors;
  return {
    requestsPerSecond: r.requests / (r.durationUs / 1e6),
    p50: r.requests > 0 ? r.p50Us / 1000 : NaN,
    p99: r.requests > 0 ? r.p99Us / 1000 : NaN,
    requests: r.requests,
    errors: socketErrors + r.timeouts + r.statusErrors + (r.requests === 0 ? spec.connections : 0),
    non2xx: r.statusErrors,
    // wrk counts answers of status 400 and over, not each status.
    statusCodes: { '< 400': r.requests - r.statusErrors, '≥ 400': r.statusErrors },
    bytesPerResponse: r.requests > 0 ? r.bytes / r.requests : 0,
    generator: 'wrk',
  };
}

/** Warm-up (discarded), then the measured run, with `measure` called around the measured part only. */
export async function runLoad(
  spec: LoadSpec,
  warmup: number,
  measure: () => () => void = () => () => {},
): Promise<LoadResult> {
  const wrkWanted = spec.generator === 'wrk' && spec.path !== undefined;
  if (wrkWanted && hasWrk()) {
    return runLoadWithWrk({ ...spec, path: spec.path! }, warmup, measure);
  }
  if (warmup > 0) await runOnce(spec, warmup);
  const done = measure();
  const { result: r, latenciesMs } = await runOnce(spec, spec.duration);
  done();
  const requests = r.requests.total;
  return {
    requestsPerSecond: r.requests.average,
    // No answer at all within the run: the latency is unknown (longer than the run), not 0.
    p50: requests > 0 ? percentile(latenciesMs, 50) : NaN,
    p99: requests > 0 ? percentile(latenciesMs, 99) : NaN,
    requests,
    // Then every connection counts as failed: a run nobody got an answer from is not error-free.
    errors: r.errors + r.timeouts + r.non2xx + (requests === 0 ? spec.connections : 0),
    non2xx: r.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
    ),
    bytesPerResponse: requests > 0 ? r.throughput.total / requests : 0,
    generator: wrkWanted ? 'autocannon (wrk not installed)' : 'autocannon',
  };
}

/**
 * One scenario's row from its load run: the figures every bench run reports, the server's CPU
 * per answered request from `cpuMs` (its CPU over the measured run), the machine's load at the end.
 */
export function scenarioRow(
  scenario: { name: string; group: ScenarioGroup },
  r: LoadResult,
  { healthRps, peakRssMb, cpuMs }: { healthRps: number; peakRssMb: number; cpuMs: number },
): ScenarioRow {
  return {
    scenario: scenario.name,
    group: scenario.group,
    requestsPerSecond: r.requestsPerSecond,
    requests: r.requests,
    p50: r.p50,
    p99: r.p99,
    errors: r.errors,
    ratioToHealth: r.requestsPerSecond / healthRps,
    peakRssMb,
    bytesPerResponse: r.bytesPerResponse,
    serverCpuMsPerRequest: r.requests > 0 ? cpuMs / r.requests : NaN,
    statusCodes: r.statusCodes,
    generator: r.generator,
    loadAverage: os.loadavg()[0]!,
  };
}
