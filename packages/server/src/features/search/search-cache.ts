import { LRUCache } from 'lru-cache';
import {
  cacheScope,
  CacheRoom,
  CampusParts,
  DEFAULT_CACHE_MEMORY_MB,
  sharedCacheClock,
} from '../../campuses/campus-cache-scope';

/** What an entry is counted as in the campuses' cache room when its cache says nothing else. */
const ENTRY_BYTES = 512;

export interface CatalogueCacheOptions<V> {
  /** Entries kept per campus (a single-campus installation's limit). */
  maxEntries: number;
  ttlMs: number;
  now?: () => number;
  /** The room the campuses' parts share (campus-cache-scope.ts); without one, a room of its own. */
  room?: CacheRoom;
  /** An entry's bytes, as the room counts them (about: an answer's text and what it holds). */
  sizeOf?: (value: V, key: string) => number;
}

/**
 * Answers that only a change of the catalogue can change, kept in memory until it changes
 * (listing-caches.ts empties them then) or for `ttlMs` at most, the least recently used dropped past
 * `maxEntries` (lru-cache). Concurrent misses of one key share one load (lru-cache's `fetch`). A load
 * that was running when the cache was emptied is handed to its waiters but not kept: emptying aborts
 * it, `ignoreFetchAbort` lets it finish, and lru-cache stores an aborted load's value nowhere.
 *
 * While one process serves several campuses (decision 024), each campus has an LRU of its own with
 * `maxEntries` (campus-cache-scope.ts), read only by work done as that campus, emptied when its
 * catalogue changes (`invalidate(scope)`), the other campuses' left warm; the campuses' LRUs share
 * the installation's cache room (CACHE_MEMORY_MB), which drops the least recently used campus's.
 */
export class CatalogueCache<V> {
  // Boxed: lru-cache keeps no null or undefined values, and a listing that does not exist is an answer.
  readonly #parts: CampusParts<LRUCache<string, { value: V }, () => Promise<V>>>;

  constructor(options: CatalogueCacheOptions<V>) {
    const { sizeOf } = options;
    const make = () =>
      new LRUCache<string, { value: V }, () => Promise<V>>({
        max: options.maxEntries,
        ttl: options.ttlMs,
        ignoreFetchAbort: true,
        fetchMethod: async (_key, _stale, { context: load }) => ({ value: await load() }),
        // Counted for the room only: the limit is `max` entries.
        maxEntrySize: Number.MAX_SAFE_INTEGER,
        sizeCalculation: sizeOf
          ? (box, key) => Math.max(1, Math.ceil(sizeOf(box.value, key)))
          : (_box, key) => ENTRY_BYTES + 2 * key.length,
        // A test's clock, or the one every campus's part shares; read at every look (lru-cache's own
        // reuse of a reading sets a timer per cache).
        perf: { now: options.now ?? sharedCacheClock },
        ttlResolution: 0,
      });
    const room = options.room ?? new CacheRoom(DEFAULT_CACHE_MEMORY_MB * 1024 * 1024);
    this.#parts = new CampusParts(make, room);
  }

  /** Entries kept, every campus's, loads in flight included. */
  get size(): number {
    let size = 0;
    for (const part of this.#parts.parts()) size += part.size;
    return size;
  }

  /** Empties the campus `scope`'s entries (campus-cache-scope.ts); without one, every entry. */
  invalidate(scope = ''): void {
    this.#parts.empty(scope);
  }

  /**
   * Whether the campus of the work at hand has nothing under `key`: no answer kept (a lapsed one
   * counts as kept), no load running.
   */
  isAbsent(key: string): boolean {
    const status: LRUCache.Status<string, { value: V }, () => Promise<V>> = {};
    // lru-cache's `has` sets status.has to 'miss' only when the key has no entry at all; a load in
    // flight leaves it unset, a lapsed entry makes it 'stale'.
    return !this.#parts.of(cacheScope()).has(key, { status }) && status.has === 'miss';
  }

  /** The answer kept for `key` for the campus of the work at hand, if any (no load is started). */
  peek(key: string): V | undefined {
    return this.#parts.of(cacheScope()).get(key)?.value;
  }

  /** Lets go of what is kept under `key` for the campus of the work at hand. */
  forget(key: string): void {
    const scope = cacheScope();
    const part = this.#parts.of(scope);
    part.delete(key);
    this.#parts.measure(scope, part);
  }

  /** Keeps `value` under `key` for the campus of the work at hand. */
  set(key: string, value: V): void {
    const scope = cacheScope();
    const part = this.#parts.of(scope);
    part.set(key, { value });
    this.#parts.measure(scope, part);
  }

  /**
   * The answer kept (and still fresh) for `key` for the campus of the work at hand, boxed; undefined
   * while it is missing, lapsed or loading. No promise: a caller answers a hit without waiting.
   */
  hit(key: string): { value: V } | undefined {
    return this.#parts.of(cacheScope()).get(key);
  }

  /** The answer kept for `key` for the campus of the work at hand, else the one `load` gives. */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const scope = cacheScope();
    const part = this.#parts.of(scope);
    // A hit needs none of lru-cache's fetch (a promise of its own) nor a measure (nothing changed).
    const kept = part.get(key);
    if (kept) return kept.value;
    try {
      // A fetch with a fetchMethod that never answers undefined always gives a box (or throws).
      const kept = await part.fetch(key, { context: load });
      return kept!.value;
    } finally {
      this.#parts.measure(scope, part);
    }
  }
}
