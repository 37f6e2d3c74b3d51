import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ListingRow } from '../../db/schema';
import { WriteInvalidatedCache } from './search-cache';
import type { TermResolution } from './listings.search';

declare module 'fastify' {
  interface FastifyInstance {
    listingCaches: {
      /** What the vocabulary says about a search term (both engines). */
      terms: WriteInvalidatedCache<TermResolution>;
      /** Whole search answers, on the embedded engine only (null on PostgreSQL). */
      searches: WriteInvalidatedCache<ListingRow[]> | null;
    };
  }
}

/**
 * What a search can reuse, and when it must not. Every state-changing request (any method but GET
 * and HEAD) empties both caches before its answer is sent, so a saved listing, a sale or a deletion
 * shows in the very next search from this process.
 *
 * - What the vocabulary says about a search term: on both engines, for a minute. With several app servers on
 *   one PostgreSQL, another server's new word becomes a typo candidate here within that minute (the
 *   listing itself is found at once by its exact words).
 * - Whole search answers: only on the embedded engine. There this process is the only writer (the
 *   DATA_DIR lock), so nothing else can make an answer stale; and PGlite runs every query on the
 *   server's one thread, so the repeated searches (the home page's, a popular title) are the ones
 *   worth not running again. On PostgreSQL other app servers write, and the database is fast.
 */
export default fp(
  async function listingCachesPlugin(app: FastifyInstance) {
    const caches = {
      terms: new WriteInvalidatedCache<TermResolution>({ maxEntries: 2_000, ttlMs: 60_000 }),
      searches:
        app.database.engine === 'pglite'
          ? new WriteInvalidatedCache<ListingRow[]>({ maxEntries: 500, ttlMs: 10 * 60_000 })
          : null,
    };
    app.decorate('listingCaches', caches);
    app.addHook('onSend', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        caches.terms.invalidate();
        caches.searches?.invalidate();
      }
    });
  },
  { name: 'listing-caches', dependencies: ['database'] },
);
