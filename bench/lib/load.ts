import autocannon, { type Options, type Request } from 'autocannon';

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
}

export interface LoadSpec {
  url: string;
  connections: number;
  duration: number;
  /** A fixed path, or dynamic requests (setupRequest / onResponse). */
  path?: string;
  requests?: Request[];
  headers?: Record<string, string>;
}

async function runOnce(spec: LoadSpec, duration: number): Promise<autocannon.Result> {
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
  return autocannon(options);
}

/** Warm-up (discarded), then the measured run, with `measure` called around the measured part only. */
export async function runLoad(
  spec: LoadSpec,
  warmup: number,
  measure: () => () => void = () => () => {},
): Promise<LoadResult> {
  if (warmup > 0) await runOnce(spec, warmup);
  const done = measure();
  const r = await runOnce(spec, spec.duration);
  done();
  const requests = r.requests.total;
  return {
    requestsPerSecond: r.requests.average,
    // No answer at all within the run: the latency is unknown (longer than the run), not 0.
    p50: requests > 0 ? r.latency.p50 : NaN,
    p99: requests > 0 ? r.latency.p99 : NaN,
    requests,
    // Then every connection counts as failed: a run nobody got an answer from is not error-free.
    errors: r.errors + r.timeouts + r.non2xx + (requests === 0 ? spec.connections : 0),
    non2xx: r.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
    ),
    bytesPerResponse: requests > 0 ? r.throughput.total / requests : 0,
  };
}
