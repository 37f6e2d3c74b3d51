import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { parseScrape, type Scrape } from '../../test/support/prometheus-text';
import { UNMATCHED_ROUTE } from './metrics';

const ID = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ METRICS: 'on' });
  token = readFileSync(path.join(t.dataDir, 'metrics-token'), 'utf8').trim();
});
afterAll(async () => t.close());

async function scrape(): Promise<Scrape> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(res.body);
}

/** The value of the one sample named so with these labels. */
function value(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  const found = scrape.find(name, labels);
  if (found.length !== 1)
    throw new Error(`${found.length} samples ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

describe('GET /metrics', () => {
  it('refuses a scrape without the token in DATA_DIR, or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, statusCode: 401 });
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('counts real traffic by route pattern and status class, never by raw URL', async () => {
    const traffic = [
      '/api/health',
      '/api/health',
      `/api/listing/get/${ID}`,
      '/api/listing/get?searchTerm=calculus',
      `/api/no-such-route/${ID}`,
      `/somewhere/${ID}?token=secret`,
    ];
    for (const url of traffic) await t.app.inject({ method: 'GET', url });
    await t.app.inject({ method: 'POST', url: '/api/listing/create', payload: {} });

    const metrics = await scrape();
    expect(metrics.types.get('http_request_duration_seconds')).toBe('histogram');
    const count = (route: string, status_class: string, method = 'GET') =>
      value(metrics, 'http_request_duration_seconds_count', { route, status_class, method });
    expect(count('/api/health', '2xx')).toBe(2);
    expect(count('/api/listing/get/:id', '4xx')).toBe(1);
    expect(count('/api/listing/get', '2xx')).toBe(1);
    expect(count('/api/listing/create', '4xx', 'POST')).toBe(1);
    expect(count(UNMATCHED_ROUTE, '4xx')).toBe(2);
    const health = metrics.find('http_request_duration_seconds_bucket', { route: '/api/health' });
    expect(health.find((b) => b.labels.le === '+Inf')?.value).toBe(2);
    // No label anywhere holds an id, a query string or a path no route has.
    const labelValues = metrics.samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.length).toBeGreaterThan(20);
    for (const label of labelValues) {
      expect(label).not.toContain(ID);
      expect(label).not.toMatch(/\?|secret|no-such-route|somewhere/);
    }
    const classes = metrics.find('http_request_duration_seconds_count').map((s) => s.labels);
    expect(classes.every((l) => /^[0-5]xx$/.test(l.status_class ?? ''))).toBe(true);
  });

  it('reports the process, the event loop, the jobs, the mail, the streams and the pools', async () => {
    t.app.jobs.register('metrics-test.ok', async () => {});
    t.app.jobs.register('metrics-test.fails', async () => {
      throw new Error('planned failure');
    });
    await t.app.jobs.enqueue('metrics-test.ok');
    await t.app.jobs.enqueue('metrics-test.fails');
    await t.app.jobs.runDue();
    await t.app.mailer.send({ to: 'someone@example.edu', subject: 'Hello', text: 'Hi' });

    const metrics = await scrape();
    expect(value(metrics, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(value(metrics, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(metrics.types.get('nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
    expect(metrics.find('nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);

    const runs = (job: string, result: string) =>
      value(metrics, 'jobs_runs_total', { job: `metrics-test.${job}`, result });
    expect(runs('ok', 'ok')).toBe(1);
    expect(runs('fails', 'failed')).toBe(1);
    expect(metrics.types.get('jobs_start_lag_seconds')).toBe('histogram');
    expect(value(metrics, 'jobs_start_lag_seconds_count', { job: 'metrics-test.ok' })).toBe(1);
    // The failed job waits for its retry: nothing is overdue.
    expect(value(metrics, 'jobs_overdue')).toBe(0);
    expect(value(metrics, 'jobs_oldest_overdue_seconds')).toBe(0);
    expect(value(metrics, 'jobs_given_up')).toBe(0);

    expect(value(metrics, 'mail_sent_total')).toBe(1);
    expect(value(metrics, 'mail_send_failures_total')).toBe(0);
    const queues = metrics.find('mail_outbox_depth').map((s) => s.labels.queue);
    expect(queues.sort()).toEqual(['digest', 'immediate', 'in_process']);

    expect(value(metrics, 'event_streams_open')).toBe(0);
    t.app.metrics.eventStreamOpened();
    expect(value(await scrape(), 'event_streams_open')).toBe(1);
    t.app.metrics.eventStreamClosed();

    // The campuses' answers kept in memory (several campuses: campus-cache-scope.test.ts fills
    // the room): as the room counts them, under CACHE_MEMORY_MB.
    const room = t.app.listingCaches.room;
    expect(value(metrics, 'cache_memory_bytes', { state: 'max' })).toBe(
      t.app.config.cacheMemoryBytes,
    );
    expect(value(metrics, 'cache_memory_bytes', { state: 'used' })).toBe(room.bytes);
    expect(value(metrics, 'cache_campus_parts')).toBe(room.parts);
    expect(value(metrics, 'cache_campus_parts_dropped_total')).toBe(0);

    const pools = metrics.find('db_pool_connections');
    if (TEST_ENGINE === 'postgres') {
      expect(new Set(pools.map((s) => s.labels.pool))).toEqual(
        new Set(['main', 'custom_plan', 'generic_plan']),
      );
      expect(value(metrics, 'db_pool_connections', { pool: 'main', state: 'max' })).toBeGreaterThan(
        0,
      );
      expect(metrics.find('db_pool_waiting_queries')).toHaveLength(3);
    } else {
      // The embedded engine has no pool (one connection in this process).
      expect(pools).toEqual([]);
    }
  });

  it('reports an overdue job and its lag', async () => {
    // Due in the past for the clock: a job no server of this test runs (no handler).
    await t.app.jobs.enqueue('metrics-test.nobody', {}, { runAt: new Date(Date.now() - 90_000) });
    const metrics = await scrape();
    expect(value(metrics, 'jobs_overdue')).toBeGreaterThanOrEqual(1);
    expect(value(metrics, 'jobs_oldest_overdue_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('counts a mail that could not be sent', async () => {
    const was = value(await scrape(), 'mail_send_failures_total');
    // A file where the outbox folder should be: the mail cannot be written.
    rmSync(path.join(t.dataDir, 'outbox'), { recursive: true, force: true });
    writeFileSync(path.join(t.dataDir, 'outbox'), '');
    try {
      await expect(
        t.app.mailer.send({ to: 'someone@example.edu', subject: 'x', text: 'x' }),
      ).rejects.toThrow();
    } finally {
      rmSync(path.join(t.dataDir, 'outbox'), { force: true });
    }
    expect(value(await scrape(), 'mail_send_failures_total')).toBe(was + 1);
  });
});

describe('docs/grafana-dashboard.json', () => {
  it('charts only series the server exposes', async () => {
    const dashboard = readFileSync(
      path.join(import.meta.dirname, '../../../../docs/grafana-dashboard.json'),
      'utf8',
    );
    const used = new Set(
      dashboard.match(/\b(http|db_pool|jobs|mail|event_streams|nodejs|process)_[a-z0-9_]+/g),
    );
    expect(used.size).toBeGreaterThan(10);
    const exposed = new Set((await scrape()).samples.map((s) => s.name));
    // The pools' series exist on PostgreSQL only.
    const expected = [...used].filter(
      (n) => TEST_ENGINE === 'postgres' || !n.startsWith('db_pool'),
    );
    expect(expected.filter((name) => !exposed.has(name))).toEqual([]);
  });
});

describe('metrics off (the default)', () => {
  it('has no /metrics route and writes no token', async () => {
    const off = await createTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(() => readFileSync(path.join(off.dataDir, 'metrics-token'))).toThrow();
    } finally {
      await off.close();
    }
  });

  it('takes METRICS_TOKEN instead of the file when set', async () => {
    const secret = 'a'.repeat(40);
    const set = await createTestApp({ METRICS: 'on', METRICS_TOKEN: secret });
    try {
      const ok = await set.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(ok.statusCode).toBe(200);
      expect(() => readFileSync(path.join(set.dataDir, 'metrics-token'))).toThrow();
    } finally {
      await set.close();
    }
  });
});
