import type { ListingCaches } from './listing-caches';
import { CatalogueCache } from './search-cache';

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
  caches: Pick<ListingCaches, 'generation' | 'ensureFresh'>,
  options: { maxEntries: number; ttlMs: number },
) {
  const answers = new CatalogueCache<V>(options);
  let keptFor = caches.generation();

  return async function kept(key: string, load: () => Promise<V>): Promise<V> {
    const fresh = await caches.ensureFresh(caches.generation());
    if (!fresh || caches.generation() !== keptFor) {
      answers.invalidate();
      keptFor = caches.generation();
    }
    return answers.getOrLoad(key, load);
  };
}
