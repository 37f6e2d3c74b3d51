import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runInCampus, runOutsideCampus, type ServedCampus } from '../campuses/campus-context';
import type { CampusRouting } from '../campuses/campus-routing';
import type { JobScope } from '../jobs/job-options';
import { Jobs } from '../jobs/jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Background jobs shared by every app server (src/jobs/jobs.ts): `register(name, handler,
     * { every })` for a recurring one, `enqueue(name, payload, { runAt, key })` for a one-off one.
     */
    jobs: Jobs;
  }
}

/**
 * A starting server's first look for due jobs waits this long: its first seconds answer requests at
 * full rate, not a backlog of missed recurring runs (issue 46: health at a fifth of its rate for ten
 * seconds after a start on the embedded engine at 100k listings). A job enqueued meanwhile runs at once.
 */
const START_DELAY_MS = 10_000;

export interface JobsPluginOptions {
  /** The jobs' clock (tests). */
  now?: () => Date;
  /** Look for due jobs by itself; tests leave it off and call `app.jobs.runDue()`. */
  poll?: boolean;
  /**
   * A many-campus installation's campuses (decision 024): each campus's jobs run in its context,
   * from its own `jobs` table, beside the default campus's (`public`).
   */
  campuses?: readonly ServedCampus[];
  /** The directory's changes: a campus added or moved while running is served, one removed not. */
  watch?: CampusRouting['watch'];
}

/** A campus's scope: its jobs in its context, on the server it is on now. */
function campusScope(campus: ServedCampus): JobScope {
  return {
    key: campus.key,
    schema: campus.schema,
    run: <T>(work: () => T) => runInCampus(campus, work),
    paused: () => (campus.state ?? 'active') !== 'active',
    get listen() {
      return campus.listen;
    },
  };
}

/** The runner's scopes: the default campus, then each campus of the directory in its context. */
export function jobScopesOf(campuses: readonly ServedCampus[]): JobScope[] {
  return [{ key: '', schema: 'public', run: runOutsideCampus }, ...campuses.map(campusScope)];
}

/**
 * `app.jobs`: features register their jobs while the app is built; once it is ready the recurring
 * ones are scheduled and the server starts looking for due jobs; `app.close()` stops it and waits for
 * the jobs it runs.
 */
export default fp(
  async function jobsPlugin(app: FastifyInstance, options: JobsPluginOptions) {
    const poll = options.poll ?? app.config.env !== 'test';
    const jobs = new Jobs(app.database, {
      now: options.now,
      startDelayMs: poll ? START_DELAY_MS : 0,
      pollMs: app.config.jobs.pollMs,
      leaseMs: app.config.jobs.leaseMs,
      ...(options.campuses
        ? { scopes: jobScopesOf(options.campuses), idleScanMs: app.config.jobs.idleScanMs }
        : {}),
      log: app.log,
    });
    app.decorate('jobs', jobs);
    const unwatch = options.watch?.(async ({ kind, campus }) => {
      if (kind === 'added') await jobs.addScope(campusScope(campus));
      else if (kind === 'removed') jobs.removeScope(campus.key);
      else await jobs.scopeMoved(campus.key);
    });

    const heartbeatMs = app.config.jobs.heartbeatMs;
    if (heartbeatMs) {
      // Each run leaves a row that no server runs (nothing handles 'heartbeat-ran'), written with
      // the run's end: the load-balancer test counts them against the schedule's slots, across
      // servers killed and restarted.
      jobs.register(
        'heartbeat',
        async ({ scheduledFor, once }) => {
          await once((tx) =>
            jobs.enqueue(
              'heartbeat-ran',
              { slot: scheduledFor.toISOString(), pid: process.pid },
              { runAt: new Date('9999-01-01T00:00:00Z'), db: tx },
            ),
          );
        },
        { every: heartbeatMs },
      );
    }

    app.addHook('onReady', async () => jobs.start({ poll }));
    app.addHook('onClose', async () => {
      unwatch?.();
      await jobs.stop();
    });
  },
  { name: 'jobs', dependencies: ['database'] },
);
