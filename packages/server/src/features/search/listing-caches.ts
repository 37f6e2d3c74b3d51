import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { rowsOf } from '../../db/rows';
import { CatalogueCache } from './search-cache';
import type { StoredListing } from '../listings/listings.queries';
import type { SearchCaches } from './caches';
import type { SearchPage } from './search-listings';
import type { TermResolution } from './terms';

/** The catalogue's caches: the search's, its whole answers and listings' stored answers by id. */
export type ListingCaches = Required<SearchCaches> & {
  /** Whole search answers (the page and its total), on the embedded engine only (null on PostgreSQL). */
  searches: CatalogueCache<SearchPage> | null;
  /** Listings' stored answers by id (GET /api/listing/get/{id}), on the embedded engine only. */
  listings: CatalogueCache<StoredListing | null> | null;
  /** Empties every cache. */
  invalidate(): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    listingCaches: ListingCaches;
  }
}

/**
 * What a search can reuse, and when it must not.
 *
 * - What the vocabulary says about a search term: on both engines, for a minute.
 * - A search's total: on both engines, for ten minutes. Counting is most of the database's work for a
 *   search many listings match (docs/performance.md), and the total depends on the catalogue only.
 * - Whole search answers (`searches`, the pages' and the route's loads): only on the embedded
 *   engine, where PGlite runs every query on the server's one thread. The search route keeps its
 *   answers as ready bytes on both engines besides (search.routes.ts, by catalogue-kept.ts's rule).
 * - Listings' stored answers by id (GET /api/listing/get/{id}), on the embedded engine only, for the
 *   same reason: a shared listing's link is opened by many at once.
 *
 * They are emptied when what a search or a page shows can have changed, that is when the catalogue
 * changed: every statement that writes listings bumps the one-row `catalogue_version` in its
 * transaction (trigger, migration 0008) and sends `NOTIFY catalogue, <version>` at its commit. A
 * sign-in, a saved listing, a push subscription or a conversation's read mark writes no listing: the
 * caches stay warm (until 2026-12 every request but GET and HEAD emptied them, 25 times a second in
 * the term's first days). No app server answers past a change any of them acknowledged
 * (docs/decisions/006):
 * - PostgreSQL (several servers): a search's page statement reads the version beside its rows; when
 *   it moved past what the caches hold, they are emptied and the search runs again
 *   (search-listings.ts); the other cached answers read the version first (`ensureFresh`:
 *   the signed-out pages, catalogue-kept.ts). A write this server acknowledged was committed, with
 *   its version, before its answer, so the next read here sees it as it would on any other server.
 *   The NOTIFY (delivered at commit, on a connection of its own) empties them sooner, so memory is
 *   not held by stale answers; correctness does not rely on it.
 * - PGlite (one process, the DATA_DIR lock) checks no version on a read (its whole answers are what
 *   save it a query). There the NOTIFY is what empties them: PGlite hands it to its listeners
 *   (a microtask queued while it reads the COMMIT's answer) before the writing statement's promise
 *   resolves, so before the request that wrote can answer; two apps on one handle (tests) both get
 *   it. Were the LISTEN refused, every request but GET and HEAD would empty them, as before.
 * - Code that changes listings outside a request (jobs, links) may call `invalidate()` as well.
 */
export default fp(
  async function listingCachesPlugin(app: FastifyInstance) {
    const terms = new CatalogueCache<TermResolution>({ maxEntries: 2_000, ttlMs: 60_000 });
    const totals = new CatalogueCache<number>({ maxEntries: 2_000, ttlMs: 10 * 60_000 });
    const searches =
      app.database.engine === 'pglite'
        ? new CatalogueCache<SearchPage>({ maxEntries: 500, ttlMs: 10 * 60_000 })
        : null;
    const byId =
      app.database.engine === 'pglite'
        ? new CatalogueCache<StoredListing | null>({ maxEntries: 5_000, ttlMs: 10 * 60_000 })
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
    const readVersion = async () => {
      const [row] = await rowsOf<{ version: string | number }>(
        app.database.db,
        sql`SELECT version FROM catalogue_version WHERE id = 1`,
      );
      return Number(row?.version ?? 0);
    };
    /**
     * The catalogue's version, read by a statement that started after the call: every caller that
     * arrives while a read is in flight waits for the next one, which they all share. A read that
     * started before a caller arrived may predate a write its client saw acknowledged, so it is
     * never handed to it; under load one read serves every request of a round trip, not one each.
     */
    let reading: Promise<number> | null = null;
    let nextRead: Promise<number> | null = null;
    const currentVersion = (): Promise<number> => {
      if (!reading) {
        const read = readVersion().finally(() => {
          if (reading === read) reading = null;
        });
        reading = read;
        return read;
      }
      nextRead ??= reading
        .catch(() => 0)
        .then(() => {
          nextRead = null;
          return currentVersion();
        });
      return nextRead;
    };
    const ensureFresh = async (since: number) => {
      if (!isPostgres) return true;
      return isFresh(await currentVersion(), since);
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

    /** On PGlite without notifications: the server's own writes are the catalogue's changes. */
    let isEmptiedByEveryWrite = false;
    app.addHook('onSend', async (request) => {
      if (isEmptiedByEveryWrite && request.method !== 'GET' && request.method !== 'HEAD') {
        invalidate();
      }
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
          isEmptiedByEveryWrite = !isPostgres;
          app.log.warn(
            { err: error },
            isPostgres
              ? 'no catalogue notifications: caches check the version only'
              : 'no catalogue notifications: every write empties the caches',
          );
          return null;
        });
    });
    app.addHook('onClose', async () => {
      await unlisten?.();
    });
  },
  { name: 'listing-caches', dependencies: ['database'] },
);
