import type { BookDetails } from '@campus-books/common/book.schemas';
import type { Db } from '../../db/database';
import type { BookRow } from '../../db/schema';
import { LOOKUP_TIMEOUT_MS, type BookProvider, type FoundBook } from './book-lookup';
import { findCachedBook, saveCachedBook } from './books.repository';
import { cacheScope } from '../../campuses/campus-cache-scope';

/** A miss is asked again after a day: the provider may have added the book since. */
export const MISS_TTL_MS = 24 * 60 * 60 * 1000;

export type LookupResult =
  | { kind: 'found'; book: BookDetails; provider: string | null }
  | { kind: 'unknown' }
  | { kind: 'unavailable' }
  | { kind: 'off' };

export interface BookLookupOptions {
  db: Db;
  /** Asked in this order; the first that knows the book answers. Empty: lookup is off. */
  providers: BookProvider[];
  now?: () => Date;
  timeoutMs?: number;
}

function detailsOf(isbn: string, book: FoundBook | BookRow): BookDetails {
  return {
    isbn,
    title: book.title,
    authors: book.authors,
    edition: book.edition,
    publisher: book.publisher,
    year: book.year,
    coverUrl: book.coverUrl,
  };
}

/**
 * Looks books up by ISBN-13, through the `books` cache: a hit is kept, a miss for MISS_TTL_MS, a
 * failure (every provider down, slow or answering nonsense) not at all. Concurrent lookups of one
 * ISBN in this process share one round of provider requests; across processes the cache row keeps
 * a campus to one request per book.
 */
export function createBookLookup(options: BookLookupOptions) {
  const { db, providers } = options;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? LOOKUP_TIMEOUT_MS;
  // Lookups running now, not a cache (kept as a Map, not lru-cache): an entry lives only while its
  // lookup runs, so its size is the requests in flight and there is nothing to expire; what a lookup
  // found is kept by the `books` table's rules (a miss for a day, a failure not at all), which an
  // in-memory copy of the result would bypass.
  const inFlight = new Map<string, Promise<LookupResult>>();

  async function askProviders(isbn: string): Promise<LookupResult> {
    let failed = false;
    for (const provider of providers) {
      try {
        const book = await provider.lookup(isbn, AbortSignal.timeout(timeoutMs));
        if (book) {
          await saveCachedBook(db, isbn, book, provider.name, now());
          return { kind: 'found', book: detailsOf(isbn, book), provider: provider.name };
        }
      } catch {
        failed = true;
      }
    }
    if (failed) return { kind: 'unavailable' };
    await saveCachedBook(db, isbn, null, null, now());
    return { kind: 'unknown' };
  }

  async function lookup(isbn: string): Promise<LookupResult> {
    const cached = await findCachedBook(db, isbn);
    if (cached?.found)
      return { kind: 'found', book: detailsOf(isbn, cached), provider: cached.provider };
    if (providers.length === 0) return { kind: 'off' };
    if (cached && now().getTime() - cached.fetchedAt.getTime() < MISS_TTL_MS)
      return { kind: 'unknown' };
    return askProviders(isbn);
  }

  return {
    providers,
    /** The book of an ISBN-13, from the cache or the providers. */
    lookup(isbn: string): Promise<LookupResult> {
      // By campus too (decision 024): a lookup saves what it found in its own campus's `books`.
      const key = `${cacheScope()}:${isbn}`;
      const running = inFlight.get(key);
      if (running) return running;
      const started = lookup(isbn).finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
  };
}

export type BookLookup = ReturnType<typeof createBookLookup>;
