import { LRUCache } from 'lru-cache';
import { cacheScope, CacheScopes } from '../../campuses/campus-cache-scope';

/**
 * Answers that only a change of the catalogue can change, kept in memory until it changes
 * (listing-caches.ts empties them then) or for `ttlMs` at most, the least recently used dropped past
 * `maxEntries` (lru-cache). Concurrent misses of one key share one load (lru-cache's `fetch`). A load
 * that was running when the cache was emptied is handed to its waiters but not kept: emptying aborts
 * it, `ignoreFetchAbort` lets it finish, and lru-cache stores an aborted load's value nowhere.
 *
 * While one process serves several campuses (decision 024), each campus's answers are kept under
 * keys of its own (campus-cache-scope.ts), read only by work done as that campus, and emptied when
 * its catalogue changes (`invalidate(scope)`), the other campuses' left warm; `maxEntries` bounds
 * them all together.
 */
export class CatalogueCache<V> {
  // Boxed: lru-cache keeps no null or undefined values, and a listing that does not exist is an answer.
  readonly #entries: LRUCache<string, { value: V }, () => Promise<V>>;
  readonly #scopes = new CacheScopes();

  constructor(options: { maxEntries: number; ttlMs: number; now?: () => number }) {
    this.#entries = new LRUCache<string, { value: V }, () => Promise<V>>({
      max: options.maxEntries,
      ttl: options.ttlMs,
      ignoreFetchAbort: true,
      fetchMethod: async (_key, _stale, { context: load }) => ({ value: await load() }),
      // A test's clock, read at every look (no 1 ms reuse of the last reading).
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
  }

  /** Entries kept, loads in flight included. */
  get size(): number {
    return this.#entries.size;
  }

  /** Empties the campus `scope`'s entries (campus-cache-scope.ts); without one, every entry. */
  invalidate(scope = ''): void {
    this.#scopes.empty(this.#entries, scope);
  }

  /** The answer kept for `key` for the campus of the work at hand, else the one `load` gives. */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    // A fetch with a fetchMethod that never answers undefined always gives a box (or throws).
    const kept = await this.#entries.fetch(this.#scopes.key(cacheScope(), key), { context: load });
    return kept!.value;
  }
}
