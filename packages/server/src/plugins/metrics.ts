import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { currentCampusWork } from '../campuses/campus-context';
import { rowsOf } from '../db/rows';
import { AppError } from '../lib/errors';
import { isSameToken, loadOrCreateTokenFile } from '../lib/token-file';

declare module 'fastify' {
  interface FastifyInstance {
    /** What features report to the metrics; does nothing when METRICS is off. */
    metrics: AppMetrics;
  }
  interface FastifyRequest {
    /** The key of the campus that answered it, for its metrics ('' before the campus is known). */
    metricsCampus: string;
  }
}

export interface AppMetrics {
  /** An event stream (SSE) opened / closed: the open-streams gauge. */
  eventStreamOpened(): void;
  eventStreamClosed(): void;
  /** Forgets the requests counted so far: the warm-up's before the server listens (ops/warm-up.ts). */
  forgetRequests(): void;
}

/** The label of requests no route matched: never the raw URL (ids, tokens, typos). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The campus label of a request no campus answered (an unknown host, the health check). */
export const NO_CAMPUS = 'none';

/** The campus label of the default campus's queues (`public`, which no host of the directory serves). */
export const DEFAULT_CAMPUS = 'default';

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** Seconds; the budgets are milliseconds (docs/performance.md), the slow tail a few seconds. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metricsTokenFile = (dataDir: string) => path.join(dataDir, 'metrics-token');

/** The scrape token in DATA_DIR, created once, readable by the server's own user only. */
export function loadOrCreateMetricsToken(dataDir: string): string {
  return loadOrCreateTokenFile(dataDir, metricsTokenFile(dataDir));
}

function sameToken(expected: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  return isSameToken(expected, header.slice(7).trim());
}

const quiet: AppMetrics = { eventStreamOpened() {}, eventStreamClosed() {}, forgetRequests() {} };

/**
 * Prometheus metrics (prom-client) at GET /metrics, when METRICS=on, for a bearer token
 * (METRICS_TOKEN or DATA_DIR/metrics-token). Each app server exposes its own; Prometheus scrapes
 * each. Per request: one histogram observation labelled by the route's pattern, its method and its
 * status class (and its campus, when one process serves several: decision 024). Everything else (pools, jobs, outbox, memory, event loop) is read when scraped.
 * Off, it adds no hook and loads nothing.
 */
export default fp(
  async function metricsPlugin(app: FastifyInstance) {
    if (!app.config.metrics.enabled) {
      app.decorate('metrics', quiet);
      return;
    }
    const client = await import('prom-client');
    const registry = new client.Registry();
    // Process memory, CPU, handles and the event loop's delay (nodejs_eventloop_lag_*).
    client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

    // Several campuses (decision 024): each request is counted as its campus's too, by key ('none':
    // a host no campus has, or the health check). A single-campus installation has no such label.
    const byCampus = app.hasPlugin('campus-routing');
    const requests = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern, method and status class (and campus)',
      labelNames: byCampus
        ? (['route', 'method', 'status_class', 'campus'] as const)
        : (['route', 'method', 'status_class'] as const),
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    if (byCampus) {
      // A field of every request (Fastify's decorator), not a WeakMap: a WeakMap's entry for each
      // request was an ephemeron for the garbage collector to trace.
      app.decorateRequest('metricsCampus', '');
      // After the campus's routing hook: the request's work runs as its campus here.
      app.addHook('onRequest', (request, _reply, done) => {
        const work = currentCampusWork();
        if (work) request.metricsCampus = work.key;
        done();
      });
    }
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
      requests.observe(
        {
          route: request.routeOptions.url ?? UNMATCHED_ROUTE,
          method: request.method,
          status_class: STATUS_CLASSES[Math.floor(reply.statusCode / 100)] ?? 'other',
          ...(byCampus ? { campus: request.metricsCampus || NO_CAMPUS } : {}),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });

    // Database pools (PostgreSQL): connections in use and idle, and queries waiting for one.
    new client.Gauge({
      name: 'db_pool_connections',
      help: 'Connections of each database pool, by state (PostgreSQL only)',
      labelNames: ['pool', 'state'] as const,
      registers: [registry],
      collect() {
        for (const s of app.database.poolStats?.() ?? []) {
          this.set({ pool: s.pool, state: 'busy' }, s.total - s.idle);
          this.set({ pool: s.pool, state: 'idle' }, s.idle);
          this.set({ pool: s.pool, state: 'max' }, s.max);
        }
      },
    });
    new client.Gauge({
      name: 'db_pool_waiting_queries',
      help: 'Queries waiting for a free connection of each pool (PostgreSQL only)',
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        for (const s of app.database.poolStats?.() ?? []) this.set({ pool: s.pool }, s.waiting);
      },
    });

    // The campuses' answers kept in memory (campuses/campus-cache-scope.ts; several campuses: a
    // single campus's answers have each cache's own limits): the room's bytes, its campuses' parts,
    // and the parts dropped to make room (rising: CACHE_MEMORY_MB is too small for the campuses'
    // answers asked for).
    const room = app.listingCaches.room;
    new client.Gauge({
      name: 'cache_memory_bytes',
      help: "Bytes of the campuses' answers kept in memory (used) and the ceiling (max, CACHE_MEMORY_MB)",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'used' }, room.bytes);
        this.set({ state: 'max' }, room.maxBytes);
      },
    });
    new client.Gauge({
      name: 'cache_campus_parts',
      help: "Campuses' parts of the caches kept in memory (a campus has one per cache it used)",
      registers: [registry],
      collect() {
        this.set(room.parts);
      },
    });
    let droppedSeen = 0;
    new client.Counter({
      name: 'cache_campus_parts_dropped_total',
      help: "Campuses' parts dropped to stay under CACHE_MEMORY_MB, the least recently used first",
      registers: [registry],
      collect() {
        this.inc(room.droppedParts - droppedSeen);
        droppedSeen = room.droppedParts;
      },
    });

    // Jobs: this server's runs, how late they started, and (shared by all servers) what is overdue.
    const jobRuns = new client.Counter({
      name: 'jobs_runs_total',
      help: 'Job runs on this server, by job and result',
      labelNames: ['job', 'result'] as const,
      registers: [registry],
    });
    const jobLag = new client.Histogram({
      name: 'jobs_start_lag_seconds',
      help: 'How long after it was due a job started on this server',
      labelNames: ['job'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers: [registry],
    });
    app.jobs.observe((job, lagMs, failed) => {
      jobRuns.inc({ job, result: failed ? 'failed' : 'ok' });
      jobLag.observe({ job }, Math.max(0, lagMs) / 1000);
    });
    // The queues of each campus (its own tables: one query per campus per scrape), labelled with
    // its key (the default campus's `default`); a single-campus installation has no such label.
    let queueStates: Promise<CampusQueueState[]> | null = null;
    const readQueues = () =>
      (queueStates ??= (
        byCampus
          ? app.jobs.inEveryScope(async () => ({
              labels: { campus: currentCampusWork()?.key ?? DEFAULT_CAMPUS },
              state: await readQueueState(app),
            }))
          : readQueueState(app).then((state) => [{ labels: {}, state }])
      ).finally(() => (queueStates = null)));
    /** A gauge of each campus's queues, read at each scrape: a campus gone has no series left. */
    const queueGauge = (name: string, help: string, of: (state: QueueState) => number) =>
      new client.Gauge({
        name,
        help,
        labelNames: byCampus ? (['campus'] as const) : [],
        registers: [registry],
        async collect() {
          const states = await readQueues();
          this.reset();
          for (const { labels, state } of states) this.set(labels, of(state));
        },
      });
    queueGauge('jobs_overdue', 'Jobs due and not taken by any server', (s) => s.overdue);
    queueGauge(
      'jobs_oldest_overdue_seconds',
      'How long the oldest job due and not taken has waited (the runners lag), 0 if none',
      (s) => s.oldestOverdueSeconds,
    );
    queueGauge(
      'jobs_given_up',
      'Jobs that failed their last attempt and are kept for inspection',
      (s) => s.givenUp,
    );

    // Mail: the alert mails' outbox (shared), this server's sends and failures.
    new client.Gauge({
      name: 'mail_outbox_depth',
      help: 'Alert mails waiting in the outbox (alert_deliveries), immediate or for the digest',
      labelNames: byCampus ? (['queue', 'campus'] as const) : (['queue'] as const),
      registers: [registry],
      async collect() {
        const states = await readQueues();
        this.reset();
        for (const { labels, state } of states) {
          this.set({ queue: 'immediate', ...labels }, state.outboxImmediate);
          this.set({ queue: 'digest', ...labels }, state.outboxDigest);
        }
        // The mails this process is sending: no campus's queue.
        const process = byCampus ? { campus: NO_CAMPUS } : {};
        this.set({ queue: 'in_process', ...process }, app.mailer.stats.pending);
      },
    });
    let seen = { sent: 0, failed: 0 };
    const mailCounter = (name: string, help: string, key: 'sent' | 'failed') =>
      new client.Counter({
        name,
        help,
        registers: [registry],
        collect() {
          const now = app.mailer.stats[key];
          this.inc(now - seen[key]);
          seen = { ...seen, [key]: now };
        },
      });
    mailCounter('mail_sent_total', 'Mails handed to the SMTP server or the outbox folder', 'sent');
    mailCounter('mail_send_failures_total', 'Mails that could not be sent', 'failed');

    // Event streams (SSE): features report each one opened and closed.
    const streams = new client.Gauge({
      name: 'event_streams_open',
      help: 'Event streams (Server-Sent Events) open on this server',
      registers: [registry],
    });
    app.decorate('metrics', {
      eventStreamOpened: () => streams.inc(),
      eventStreamClosed: () => streams.dec(),
      forgetRequests: () => requests.reset(),
    } satisfies AppMetrics);

    const token = Buffer.from(
      app.config.metrics.token ?? loadOrCreateMetricsToken(app.config.dataDir),
    );
    app.get(
      '/metrics',
      {
        schema: {
          // An operator's route, documented in docs/operations.md.
          hide: true,
          response: {
            200: {
              description: 'The Prometheus text format',
              content: { 'text/plain': { schema: z.string() } },
            },
            ...errorResponses({ 401: 'No metrics token' }),
          },
        },
      },
      async (request, reply) => {
        if (!sameToken(token, request.headers.authorization)) {
          throw new AppError(401, 'Metrics need the token from DATA_DIR/metrics-token');
        }
        const text = await registry.metrics();
        return reply
          .header('content-type', registry.contentType)
          .header('cache-control', 'no-store')
          .send(text);
      },
    );
  },
  { name: 'metrics', dependencies: ['database', 'jobs', 'mail', 'listing-caches'] },
);

interface CampusQueueState {
  labels: { campus?: string };
  state: QueueState;
}

interface QueueState {
  overdue: number;
  oldestOverdueSeconds: number;
  givenUp: number;
  outboxImmediate: number;
  outboxDigest: number;
}

async function readQueueState(app: FastifyInstance): Promise<QueueState> {
  const now = sql`${app.jobs.now().toISOString()}::timestamptz`;
  const [row] = await rowsOf<{
    overdue: number;
    oldest: number | null;
    given_up: number;
    immediate: number;
    digest: number;
  }>(
    app.database.db,
    sql`
    SELECT
      (SELECT count(*)::int FROM jobs WHERE failed_at IS NULL AND run_at <= ${now}
        AND (locked_until IS NULL OR locked_until <= ${now})) AS overdue,
      (SELECT extract(epoch FROM ${now} - min(run_at))::float8 FROM jobs
        WHERE failed_at IS NULL AND run_at <= ${now}
        AND (locked_until IS NULL OR locked_until <= ${now})) AS oldest,
      (SELECT count(*)::int FROM jobs WHERE failed_at IS NOT NULL) AS given_up,
      (SELECT count(*)::int FROM alert_deliveries WHERE sent_at IS NULL AND NOT digest) AS immediate,
      (SELECT count(*)::int FROM alert_deliveries WHERE sent_at IS NULL AND digest) AS digest`,
  );
  return {
    overdue: row?.overdue ?? 0,
    oldestOverdueSeconds: Math.max(0, row?.oldest ?? 0),
    givenUp: row?.given_up ?? 0,
    outboxImmediate: row?.immediate ?? 0,
    outboxDigest: row?.digest ?? 0,
  };
}
