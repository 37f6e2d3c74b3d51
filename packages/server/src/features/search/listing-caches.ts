import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/database';
import type { Unlisten } from '../../db/notifications';
import { rowsOf } from '../../db/rows';
import { cacheScope, CacheRoom } from '../../campuses/campus-cache-scope';
import { catalogueNotification } from '../../campuses/campus-catalogue';
import { currentCampusWork } from '../../campuses/campus-context';
import { keptUntilCatalogueChanges, type CatalogueFreshness } from './catalogue-kept';
import { CatalogueCache } from './search-cache';
import type { KeptListing } from '../listings/listings.queries';
import { sharedFreshReads } from '../../lib/fresh-reads';
import type { SearchCaches } from './caches';
import type { SearchPage } from './search-listings';
import type { KeptTermResolution } from './terms';

/** The catalogue's caches: the search's, its whole answers and listings' stored answers by id. */
export type ListingCaches = Required<SearchCaches> & {
  /** Whole search answers (the page and its total), on the embedded engine only (null on PostgreSQL). */
  searches: CatalogueCache<SearchPage> | null;
  /**
   * A listing's stored answer by id (GET /api/listing/get/{id}), kept until the catalogue changes
   * (catalogue-kept.ts): `load` reads it when it is not kept.
   */
  listing(id: string, load: () => Promise<KeptListing | null>): Promise<KeptListing | null>;
  /** Empties the caches of the campus of the work at hand; outside any campus, every cache. */
  invalidate(): void;
  /** The memory every cache's campuses share (CACHE_MEMORY_MB, campuses/campus-cache-scope.ts). */
  room: CacheRoom;
};

declare module 'fastify' {
  interface FastifyInstance {
    listingCaches: ListingCaches;
  }
}

/**
 * What a search can reuse, and when it must not.
 *
 * - What the vocabulary says about a search term: on both engines, for ten minutes, across the
 *   changes that empty the rest: most new listings bring no new word. A word joining or leaving the
 *   vocabulary moves its words version (migration 0033), which each page reads and the kept
 *   resolution is checked against (a page without rows: kept since the caches were last emptied).
 * - A search's total: on both engines, for ten minutes. Counting is most of the database's work for a
 *   search many listings match (docs/performance.md), and the total depends on the catalogue only.
 *   A total that reached the cap is kept besides (`cappedTotals`, for an hour) across the changes
 *   that empty the rest: only a write that may take a listing out of a search moves the catalogue's
 *   shrink version (migration 0032), which each page reads and the kept total is checked against.
 * - Whole search answers (`searches`, the pages' and the route's loads): only on the embedded
 *   engine, where PGlite runs every query on the server's one thread. The search route keeps its
 *   answers as ready bytes on both engines besides (search.routes.ts, by catalogue-kept.ts's rule).
 * - Listings' stored answers by id (GET /api/listing/get/{id}), on both engines: a shared listing's
 *   link is opened by many at once, and on PostgreSQL one fence (below; shared by every request of
 *   its round trip, and by the campuses of a server) costs less than a read of the row each.
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
 *   (search-listings.ts). The other cached answers (`ensureFresh`: the signed-out pages, listings by
 *   id, catalogue-kept.ts) are trusted after the server's fence (`heard()`, db/notifications.ts):
 *   its LISTEN connection sends a NOTIFY to itself and hears it back, and PostgreSQL delivers
 *   notifications in the order their transactions committed, so every change committed before the
 *   request has been heard, and has emptied its campus's caches, by then. A write any server
 *   acknowledged was committed before its answer, so before a later request's fence. One fence per
 *   round trip serves every request and every campus of a PostgreSQL server (until 2026-12-07 each
 *   look read its campus's version: one function call per campus waiting, campus-versions.ts).
 *   While the LISTEN connection is down (its fences fail), or before its LISTEN is up, the version
 *   is read instead; a reconnection empties every campus's caches before anything else uses it.
 * - PGlite (one process, the DATA_DIR lock) checks no version on a read (its whole answers are what
 *   save it a query). There the NOTIFY is what empties them: PGlite hands it to its listeners
 *   (a microtask queued while it reads the COMMIT's answer) before the writing statement's promise
 *   resolves, so before the request that wrote can answer; two apps on one handle (tests) both get
 *   it. Were the LISTEN refused, every request but GET and HEAD would empty them, as before.
 * - Code that changes listings outside a request (jobs, links) may call `invalidate()` as well.
 *
 * Several campuses in one process (decision 024): each campus's answers are kept under keys of its
 * own (campuses/campus-cache-scope.ts), with its own catalogue version, reads of it and generation;
 * its trigger's NOTIFY names it (`campus_<key>:<version>`, campuses/campus-catalogue.ts), so a write
 * on one campus empties that campus's caches only. A notification without a campus empties every
 * campus's, as does a reconnect. The caches LISTEN on the home server from the start and on another
 * PostgreSQL server from the first look at a kept answer of one of its campuses (`hearOn`), emptying
 * every campus's caches once it is up: what was kept before was not heard over.
 */
export default fp(
  async function listingCachesPlugin(app: FastifyInstance) {
    const room = new CacheRoom(app.config.cacheMemoryBytes);
    // Not emptied with the others: each is checked against the words version a page reads.
    const terms = new CatalogueCache<KeptTermResolution>({
      maxEntries: 2_000,
      ttlMs: 10 * 60_000,
      room,
    });
    const totals = new CatalogueCache<number>({ maxEntries: 2_000, ttlMs: 10 * 60_000, room });
    // Not emptied with the others: each is checked against the shrink version a page reads.
    const cappedTotals = new CatalogueCache<number>({
      maxEntries: 2_000,
      ttlMs: 60 * 60_000,
      room,
    });
    // PGlite serves one campus: these two never have a campus's part.
    const searches =
      app.database.engine === 'pglite'
        ? new CatalogueCache<SearchPage>({ maxEntries: 500, ttlMs: 10 * 60_000 })
        : null;
    /**
     * Per campus (decision 024; '' for a single-campus installation): the highest catalogue version
     * its caches are known to be valid for, how many times they were emptied, and its version read.
     */
    interface Scope {
      seen: number;
      generation: number;
      /**
       * Its catalogue version, read through its own handle by a statement that started after the
       * call, shared by the callers of a round trip (lib/fresh-reads.ts): a single campus's way,
       * and a campus's when the read with its server's other campuses fails.
       */
      ownVersion: () => Promise<number>;
    }
    const scopes = new Map<string, Scope>();
    const scopeOf = (key: string): Scope => {
      let scope = scopes.get(key);
      if (!scope) {
        scope = { seen: -1, generation: 0, ownVersion: sharedFreshReads(readOwnVersion) };
        scopes.set(key, scope);
      }
      return scope;
    };
    /**
     * Empties a campus's caches (by default the work at hand's), the others left warm; the scope ''
     * (outside any campus) empties every campus's.
     */
    const invalidate = (key = cacheScope()) => {
      if (key === '') {
        scopeOf('');
        for (const scope of scopes.values()) scope.generation += 1;
      } else scopeOf(key).generation += 1;
      totals.invalidate(key);
      searches?.invalidate(key);
    };
    const moved = (version: number, key = cacheScope()) => {
      const scope = scopeOf(key);
      if (version <= scope.seen) return;
      scope.seen = version;
      invalidate(key);
    };
    const isPostgres = app.database.engine === 'postgres';
    const isFresh = (version: number, since: number) => {
      if (!isPostgres) return true;
      moved(version);
      return scopeOf(cacheScope()).generation === since;
    };
    // The work at hand's campus's version: app.database.db is its handle (campus-database.ts).
    const readOwnVersion = async () => {
      const [row] = await rowsOf<{ version: string | number }>(
        app.database.db,
        sql`SELECT version FROM catalogue_version WHERE id = 1`,
      );
      return Number(row?.version ?? 0);
    };
    // Several campuses: read with the other campuses of its server, which shares one read per
    // campus among the callers of a round trip itself (campuses/campus-versions.ts); should that
    // read fail, alone.
    const readTogether = async (together: () => Promise<number>, scope: Scope) => {
      try {
        return await together();
      } catch {
        return scope.ownVersion();
      }
    };
    const currentVersion = (scope: Scope): Promise<number> => {
      const together = currentCampusWork()?.handles.catalogueVersion;
      return together ? readTogether(together, scope) : scope.ownVersion();
    };
    /**
     * The PostgreSQL servers whose catalogue notifications this app server hears, by their fence
     * (db/notifications.ts): the home server's from the start, another's (a campus moved or
     * registered there) from the first look at a kept answer of one of its campuses.
     */
    const hearing = new Map<() => Promise<void>, 'starting' | 'listening' | 'refused'>();
    const unlistens: Unlisten[] = [];
    let isClosed = false;
    const onCatalogue = (payload: string) => {
      const notification = catalogueNotification(payload);
      if (notification) moved(notification.version, notification.scope);
      else invalidate('');
    };
    const hearOn = async (server: Pick<Database, 'listen' | 'heard'>) => {
      const heard = server.heard;
      if (!heard || hearing.has(heard)) return;
      hearing.set(heard, 'starting');
      try {
        // Notifications may have been missed while the connection was down: every campus's.
        const unlisten = await server.listen('catalogue', onCatalogue, () => invalidate(''));
        if (isClosed) return void (await unlisten());
        unlistens.push(unlisten);
      } catch (error) {
        hearing.set(heard, 'refused');
        throw error;
      }
      // What its campuses kept before now was not heard over: from here on it is.
      invalidate('');
      hearing.set(heard, 'listening');
    };
    /**
     * The work at hand's server's fence (db/notifications.ts): once it resolves, every change of
     * its catalogue acknowledged before the call has been heard, so a kept answer is fresh while its
     * generation holds. Null while that server's notifications are not heard (yet).
     */
    const fenceOfServer = (): Promise<void> | null => {
      const server = currentCampusWork()?.handles.server ?? app.database;
      const state = server.heard && hearing.get(server.heard);
      if (state === 'listening') return server.heard!();
      if (state === undefined) {
        hearOn(server).catch((error: unknown) => {
          app.log.warn({ err: error }, 'no catalogue notifications: caches check the version');
        });
      }
      return null;
    };
    const readAndCheck = async (scope: Scope, since: number) =>
      isFresh(await currentVersion(scope), since);
    const ensureFresh = (since: number): Promise<boolean> => {
      if (!isPostgres) return Promise.resolve(true);
      const scope = scopeOf(cacheScope());
      const fence = fenceOfServer();
      // Should the fence fail (its connection lost), the version says.
      return fence
        ? fence.then(
            () => scope.generation === since,
            () => readAndCheck(scope, since),
          )
        : readAndCheck(scope, since);
    };
    const freshness: CatalogueFreshness = {
      generation: () => scopeOf(cacheScope()).generation,
      ensureFresh,
      room,
    };
    app.decorate('listingCaches', {
      terms,
      totals,
      cappedTotals,
      searches,
      listing: keptUntilCatalogueChanges<KeptListing | null>(freshness, {
        maxEntries: 5_000,
        ttlMs: 10 * 60_000,
        sizeOf: (kept) => kept?.roomBytes ?? 512,
      }),
      ...freshness,
      isFresh,
      invalidate: () => invalidate(),
    });

    /** On PGlite without notifications: the server's own writes are the catalogue's changes. */
    let isEmptiedByEveryWrite = false;
    // A callback, not an async function: it runs on every request (docs/performance.md, "Hooks").
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (isEmptiedByEveryWrite && request.method !== 'GET' && request.method !== 'HEAD') {
        invalidate('');
      }
      done(null, payload);
    });

    app.addHook('onReady', async () => {
      if (isPostgres) {
        await hearOn(app.database).catch((error: unknown) => {
          app.log.warn({ err: error }, 'no catalogue notifications: caches check the version only');
        });
        return;
      }
      const unlisten = await app.database
        .listen('catalogue', onCatalogue, () => invalidate(''))
        .catch((error: unknown) => {
          isEmptiedByEveryWrite = true;
          app.log.warn(
            { err: error },
            'no catalogue notifications: every write empties the caches',
          );
          return null;
        });
      if (unlisten) unlistens.push(unlisten);
    });
    app.addHook('onClose', async () => {
      isClosed = true;
      await Promise.all(unlistens.splice(0).map((unlisten) => unlisten()));
    });
  },
  { name: 'listing-caches', dependencies: ['database'] },
);
