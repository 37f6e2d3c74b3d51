import type { ListingSearchQuery } from '@campus-books/common/listing.schemas';
import type { CatalogueCache } from './search-cache';
import type { KeptTermResolution } from './terms';

/** Caches a search may use (search/listing-caches.ts); without them every search asks the database. */
export interface SearchCaches {
  /**
   * What the vocabulary says about a search term (both engines), with the caches' generation it
   * was read in: kept across the writes that empty the other caches, and used while the page's rows
   * read the words version it was read at (migration 0033).
   */
  terms?: CatalogueCache<KeptTermResolution>;
  /** A search's capped total (SEARCH_COUNT_CAP), by searchTotalKey (both engines). */
  totals?: CatalogueCache<number>;
  /**
   * The searches whose total reached the cap, by cappedTotalKey, with the catalogue's shrink
   * version they were counted at (migration 0032): kept across the writes that empty the other
   * caches, since only a write that moves the shrink version can take a search under its cap.
   */
  cappedTotals?: CatalogueCache<number>;
  /** Changes whenever the caches are emptied. */
  generation?: () => number;
  /**
   * Whether what a search took from the caches since `generation` was fit to answer with, given the
   * catalogue version its page read: on PostgreSQL, when another app server changed the catalogue
   * since the caches were filled, it empties them; no when they were emptied since. Always yes on
   * the embedded engine (one process: a write's NOTIFY empties them at its commit).
   */
  isFresh?: (catalogueVersion: number, generation: number) => boolean;
  /** The same, reading the catalogue's version (one SELECT of one row), when no row carried it. */
  ensureFresh?: (generation: number) => Promise<boolean>;
}

/**
 * What a search's total depends on: its filters and term, not its page or order. (Equal searches
 * give equal keys: the parsed query lists its keys in the schema's order.)
 */
export function searchTotalKey(query: ListingSearchQuery): string {
  const { startIndex: _start, limit: _limit, sort: _sort, order: _order, ...matching } = query;
  return JSON.stringify({ ...matching, searchTerm: matching.searchTerm?.trim() });
}

/**
 * What a capped total depends on: the search (searchTotalKey) and what its words were resolved to
 * (`values`: a term's alternatives in the vocabulary change with the catalogue, and with them what
 * the search matches).
 */
export function cappedTotalKey(query: ListingSearchQuery, values: Record<string, unknown>): string {
  return `${searchTotalKey(query)}|${JSON.stringify(values)}`;
}
