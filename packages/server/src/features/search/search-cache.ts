import { LRUCache } from 'lru-cache';
import { currentCampusWork } from '../../campuses/campus-context';

/**
 * Answers that only a change of the catalogue can change, kept in memory until it changes
 * (listing-caches.ts empties them then) or for `ttlMs` at most, the least recently used dropped past
 * `maxEntries` (lru-cache). Concurrent misses of one key share one load (lru-cache's `fetch`). A load
 * that was running when the cache was emptied is handed to its waiters but not kept: emptying aborts
 * it, `ignoreFetchAbort` lets it finish, and lru-cache stores an aborted load's value nowhere.
 *
 * While one process serves several campuses (decision 024), a request's work runs as its campus and
 * nothing is kept: one process-wide cache keyed by the query could answer one campus with another's
 * listings. Caches of a campus's own come with the next step of that decision.
 */
export class CatalogueCache<V> {
  // Boxed: lru-cache keeps no null or undefined values, and a listing that does not exist is an answer.
  readonly #entries: LRUCache<string, { value: V }, () => Promise<V>>;

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

  invalidate(): void {
    this.#entries.clear();
  }

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    if (currentCampusWork()) return load();
    // A fetch with a fetchMethod that never answers undefined always gives a box (or throws).
    const kept = await this.#entries.fetch(key, { context: load });
    return kept!.value;
  }
}
