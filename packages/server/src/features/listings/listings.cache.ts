import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { rowsOf } from '../../db/rows';
import { WriteInvalidatedCache } from './search-cache';
import type { StoredListing } from './listings.queries';
import type { SearchCaches } from './search/caches';
import type { SearchPage } from './search/search-listings';
import type { TermResolution } from './search/terms';

declare module 'fastify' {
  interface FastifyInstance {
    listingCaches: Required<SearchCaches> & {
      /** Whole search answers (the page and its total), on the embedded engine only (null on PostgreSQL). */
      searches: WriteInvalidatedCache<SearchPage> | null;
      /** Listings' stored answers by id (GET /api/listing/get/{id}), on the embedded engine only. */
      listings: WriteInvalidatedCache<StoredListing | null> | null;
      /** Empties every cache. */
      invalidate(): void;
    };
  }
}

/**
 * What a search can reuse, and when it must not.
 *
 * - What the vocabulary says about a search term: on both engines, for a minute.
 * - A search's total: on both engines, for ten minutes. Counting is most of the database's work for a
 *   search many listings match (docs/performance.md), and the total depends on the catalogue only.
 * - Whole search answers: only on the embedded engine, where PGlite runs every query on the server's
 *   one thread, so the repeated searches (the home page's, a popular title) are the ones worth not
 *   running again. On PostgreSQL the database is fast.
 * - Listings' stored answers by id (GET /api/listing/get/{id}), on the embedded engine only, for the
 *   same reason: a shared listing's link is opened by many at once.
 *
 * A write empties them on every app server before any of them answers a search from them
 * (docs/decisions/006):
 * - this server: every state-changing request (any method but GET and HEAD) empties both before its
 *   answer is sent;
 * - the others (PostgreSQL): every statement that writes listings bumps the one-row
 *   `catalogue_version` in its transaction (trigger, migration 0008). A search's page statement reads
 *   it beside its rows; when it moved past what the caches hold, they are emptied and the search runs
 *   again (search/search-listings.ts), so a search on server B after a write that server A acknowledged sees
 *   the write, whatever the network does. The trigger's NOTIFY
 *   (delivered at commit) also empties them at once, so memory is not held by stale answers; it is
 *   not what correctness relies on (a notification may still be in flight when B answers).
 * - PGlite is one process (the DATA_DIR lock): the local emptying is enough; NOTIFY, which PGlite
 *   delivers within the process, covers two apps on one handle (tests).
 */
export default fp(
  async function listingCachesPlugin(app: FastifyInstance) {
    const terms = new WriteInvalidatedCache<TermResolution>({ maxEntries: 2_000, ttlMs: 60_000 });
    const totals = new WriteInvalidatedCache<number>({ maxEntries: 2_000, ttlMs: 10 * 60_000 });
    const searches =
      app.database.engine === 'pglite'
        ? new WriteInvalidatedCache<SearchPage>({ maxEntries: 500, ttlMs: 10 * 60_000 })
        : null;
    const byId =
      app.database.engine === 'pglite'
        ? new WriteInvalidatedCache<StoredListing | null>({ maxEntries: 5_000, ttlMs: 10 * 60_000 })
        : null;
    /** The highest catalogue version these caches are known to be valid for. */
    let seen = -1;
    /** Changes whenever the caches are emptied. */
    let generation = 0;
    const invalidate = () => {
      generation += 1;
      terms.invalidate();
      totals.invalidate();
      searches?.invalidate();
      byId?.invalidate();
    };
    const moved = (version: number) => {
      if (version <= seen) return;
      seen = version;
      invalidate();
    };
    const isPostgres = app.database.engine === 'postgres';
    const isFresh = (version: number, since: number) => {
      if (!isPostgres) return true;
      moved(version);
      return generation === since;
    };
    const ensureFresh = async (since: number) => {
      if (!isPostgres) return true;
      const [row] = await rowsOf<{ version: string | number }>(
        app.database.db,
        sql`SELECT version FROM catalogue_version WHERE id = 1`,
      );
      return isFresh(Number(row?.version ?? 0), since);
    };
    app.decorate('listingCaches', {
      terms,
      totals,
      searches,
      listings: byId,
      generation: () => generation,
      isFresh,
      ensureFresh,
      invalidate,
    });

    app.addHook('onSend', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') invalidate();
    });

    let unlisten: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      unlisten = await app.database
        .listen(
          'catalogue',
          (payload) => moved(Number(payload)),
          // Notifications may have been missed while the connection was down.
          invalidate,
        )
        .catch((error: unknown) => {
          app.log.warn({ err: error }, 'no catalogue notifications: caches check the version only');
          return null;
        });
    });
    app.addHook('onClose', async () => {
      await unlisten?.();
    });
  },
  { name: 'listing-caches', dependencies: ['database'] },
);
