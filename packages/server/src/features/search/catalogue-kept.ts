import { cacheScope, type CacheRoom } from '../../campuses/campus-cache-scope';
import { CatalogueCache, type CatalogueCacheOptions } from './search-cache';

/** What a kept answer asks of the listing caches (listing-caches.ts) to know it is still true. */
export interface CatalogueFreshness {
  /** The work at hand's campus's caches' generation: how many times they were emptied. */
  generation(): number;
  /** Whether nothing emptied them since `since`, the catalogue's version read first on PostgreSQL. */
  ensureFresh(since: number): Promise<boolean>;
  /** The memory every cache's campuses share. */
  room: CacheRoom;
}

/**
 * Answers kept in memory by key until the catalogue changes, with the search caches' rule
 * (search/listing-caches.ts): a write of listings empties them (on PGlite, its NOTIFY at the commit), and on
 * PostgreSQL every read first checks the catalogue's version (one row), so a listing created, sold
 * or hidden through any app server is in the very next answer; a write that changes no listing
 * leaves them. Concurrent misses of one key share one load. What an answer reads beside
 * the listings (alerts, the required-books list) does not move the catalogue's version: it shows
 * within `ttlMs`.
 */
export function keptUntilCatalogueChanges<V>(
  caches: CatalogueFreshness,
  options: Pick<CatalogueCacheOptions<V>, 'maxEntries' | 'ttlMs' | 'sizeOf'>,
) {
  const answers = new CatalogueCache<V>({ ...options, room: caches.room });
  // By campus (decision 024; '' for a single-campus installation): the caches' generation its
  // answers were kept in. A generation is the campus's own, as are its answers' keys.
  const keptFor = new Map<string, number>();

  return async function kept(key: string, load: () => Promise<V>): Promise<V> {
    const scope = cacheScope();
    // One look at what is kept: a hit is answered from it once the fence says it is still true.
    const hit = answers.hit(key);
    // With nothing kept or loading under the key, its load starts after this call and reads what
    // any server acknowledged before it: the version is read first only to trust what is kept (or
    // a load already running), so a miss costs one round trip less (docs/performance.md).
    const fresh =
      (hit === undefined && answers.isAbsent(key)) ||
      (await caches.ensureFresh(caches.generation()));
    if (!keptFor.has(scope)) keptFor.set(scope, caches.generation());
    if (!fresh || caches.generation() !== keptFor.get(scope)) {
      answers.invalidate(scope);
      keptFor.set(scope, caches.generation());
      return answers.getOrLoad(key, load);
    }
    // A hit is answered as it is, not as a promise to adopt (one turn of the loop less).
    return hit ? hit.value : answers.getOrLoad(key, load);
  };
}
