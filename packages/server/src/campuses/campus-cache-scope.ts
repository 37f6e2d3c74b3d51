import type { LRUCache } from 'lru-cache';
import { currentCampusWork } from './campus-context';

/**
 * The campus whose answers the work at hand may keep and read in memory: its schema, or '' outside
 * any campus (a single-campus installation; the default campus of a many-campus one).
 */
export function cacheScope(): string {
  return currentCampusWork()?.schema ?? '';
}

/**
 * The campuses' parts of one shared LRU (decision 024): one size limit for them all, so memory is
 * bounded whatever the number of campuses, and each campus's keys carry its schema and how many
 * times its part was emptied. Emptying a campus's part drops its kept entries and moves its keys on,
 * so a load that was running then (lru-cache's `keys()` skips loads in flight) is kept under a key
 * nothing asks for again. The scope '' keeps plain keys and is emptied with `clear()`, as before.
 */
export class CacheScopes {
  readonly #emptied = new Map<string, number>();

  /** `key` as kept for `scope`. */
  key(scope: string, key: string): string {
    return scope === '' ? key : `${scope}\u0000${this.#emptied.get(scope) ?? 0}\u0000${key}`;
  }

  /** Empties `scope`'s part of `cache`; the scope '' empties the whole cache. */
  empty<V extends NonNullable<unknown>, C>(cache: LRUCache<string, V, C>, scope: string): void {
    if (scope === '') {
      cache.clear();
      return;
    }
    this.#emptied.set(scope, (this.#emptied.get(scope) ?? 0) + 1);
    const prefix = `${scope}\u0000`;
    for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
  }
}
