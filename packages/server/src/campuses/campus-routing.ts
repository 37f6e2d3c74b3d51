import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { runInCampus, type CampusWork, type ServedCampus } from './campus-context';

/**
 * What a reading of the directory changed of the campuses served (campus-installation.ts): a campus
 * registered since (`campus add`), one no longer registered, or one now on another server (`campus
 * move`: its handles and LISTEN are the new server's).
 */
export interface CampusChange {
  kind: 'added' | 'removed' | 'moved';
  campus: ServedCampus;
}

/** Told of each change, awaited: an added campus's host answers once every watcher is done. */
export type CampusWatcher = (change: CampusChange) => Promise<void> | void;

/** Which campus a request's host is (a many-campus installation's directory). */
export interface CampusRouting {
  campusOfHost(host: string): CampusWork | undefined;
  /**
   * Every campus of the directory, in its order: the jobs and the live streams serve each. The same
   * array all along, changed in place as campuses are added or removed.
   */
  campuses: readonly ServedCampus[];
  /** Calls `watcher` on each campus added, removed or moved while running; returns its undo. */
  watch(watcher: CampusWatcher): () => void;
}

/** Methods that change nothing: still answered while a campus is read-only or being moved. */
const READING = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How long a refused writer is told to wait while its campus is read-only or moving. */
export const CAMPUS_MOVING_RETRY_AFTER_S = 60;

/** Paths any host may ask, outside every campus: the balancers' health check. */
const ANY_HOST = new Set(['/api/health']);

const scopes = new WeakMap<FastifyRequest, AsyncResource>();

/** Methods whose body Fastify never reads (its `bodyless`): no stream event to enter again after. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/** The campus of a Host header: the name with its port, else without it. */
export function campusOfHostHeader(
  routing: CampusRouting,
  host: string | undefined,
): CampusWork | undefined {
  const named = (host ?? '').trim().toLowerCase();
  if (named === '') return undefined;
  return routing.campusOfHost(named) ?? routing.campusOfHost(named.replace(/:\d+$/, ''));
}

/**
 * Serves each request as the campus of its host (decision 024): the request's work runs in that
 * campus's context (campus-context.ts), which activeCampus() and the database facade read. A host no
 * campus has is refused with 421 before any other hook, never answered as another campus. The
 * context is entered again after the body is read (the body's stream events run outside it), as
 * @fastify/request-context does.
 */
export default fp(
  async function campusRoutingPlugin(app: FastifyInstance, options: { routing: CampusRouting }) {
    app.addHook('onRequest', (request, reply, done) => {
      const campus = campusOfHostHeader(options.routing, request.host);
      if (!campus) {
        if (ANY_HOST.has(request.url.split('?')[0]!)) return done();
        return done(new AppError(421, `No campus is served at ${request.host ?? 'this host'}`));
      }
      // A campus being moved (or set read-only) answers reads and refuses every write: what it
      // wrote now could be left behind on the server it leaves (`campus move`, docs/operations.md).
      if (campus.state && campus.state !== 'active' && !READING.has(request.method)) {
        reply.header('retry-after', String(CAMPUS_MOVING_RETRY_AFTER_S));
        return done(
          new AppError(
            503,
            campus.state === 'moving'
              ? 'This campus is being moved; try again in a minute'
              : 'This campus is read-only for maintenance; try again in a minute',
          ),
        );
      }
      runInCampus(campus, () => {
        // Fastify reads no body of a GET, HEAD or TRACE: their hooks all run on from here.
        if (!BODYLESS.has(request.method)) scopes.set(request, new AsyncResource('campus-request'));
        done();
      });
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const scope = scopes.get(request);
      if (scope) scope.runInAsyncScope(done);
      else done();
    });
  },
  { name: 'campus-routing' },
);
