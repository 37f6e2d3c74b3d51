import http from 'node:http';

/**
 * What the server keeps in memory (its /metrics, METRICS_TOKEN): the cache room's
 * MB used of its ceiling, the campuses' parts in it and the parts dropped so far to make room.
 */
export async function cacheFigures(url: string, host: string | null): Promise<string> {
  try {
    // With a campus directory an app server answers its campuses' hosts only (fetch sets no Host).
    const text = await new Promise<string>((resolve, reject) => {
      const headers = { authorization: `Bearer ${METRICS_TOKEN}`, ...(host ? { host } : {}) };
      http
        .get(`${url}/metrics`, { headers }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
    const value = (series: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${series} `))
          ?.split(' ')[1],
      );
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    return `cache room ${mb(value('cache_memory_bytes{state="used"}'))} of ${mb(value('cache_memory_bytes{state="max"}'))} MB, ${value('cache_campus_parts')} campus parts, ${value('cache_campus_parts_dropped_total')} dropped so far`;
  } catch (error) {
    return `cache room: not read (${String(error)})`;
  }
}

/**
 * Both servers (one campus, N campuses) answer /metrics with this token: the bench prints what
 * they keep in memory after each scenario. The cost is the same in both: a histogram observation
 * per answer.
 */
const METRICS_TOKEN = 'bench-metrics-token-of-the-many-campus-scenario';
export const withMetrics = (env: Record<string, string>) => ({
  ...env,
  METRICS: 'on',
  METRICS_TOKEN,
});
