import type { FastifyInstance } from 'fastify';
import type { ListingSearchQuery } from '@campus-books/common/listing.schemas';
import type { Consortium } from '../../campuses/campus-consortium';
import type { SearchMisses } from '../../plugins/search-misses';
import { searchAcrossCampuses } from './consortium-search';
import type { ListingCaches } from './listing-caches';
import { searchListings as searchListingPage, type SearchPage } from './search-listings';
import type { SearchDatabase } from './statements';

/** What a search uses: the database, the catalogue's caches, and the count of searches that found nothing. */
export interface SearchDeps {
  database: SearchDatabase;
  caches: ListingCaches;
  misses: Pick<SearchMisses, 'record'>;
  /** The campuses the request's campus shares with (consortium sharing; none for most). */
  consortium: Pick<Consortium, 'partners'>;
}

/** The search's dependencies, from the app that serves it. */
export function searchDeps(app: FastifyInstance): SearchDeps {
  return {
    database: app.database,
    caches: app.listingCaches,
    misses: app.searchMisses,
    consortium: app.consortium,
  };
}

/** A page of search results and the search's total (search-listings.ts), from the cache when it can. */
export async function searchListings(
  { database, caches, misses, consortium }: SearchDeps,
  query: ListingSearchQuery,
): Promise<SearchPage> {
  const partners = consortium.partners();
  // Whole answers are kept on the embedded engine only, whose own writes empty them (one process);
  // the search checks what it takes from the other caches against its page's catalogue version.
  // With partner campuses, each campus's part is kept apart, emptied by its own catalogue's changes.
  const run = () =>
    partners.length > 0
      ? searchAcrossCampuses({ database, caches }, query, partners)
      : searchListingPage(database, query, caches);
  // The parsed query lists its keys in the schema's order, so equal searches give equal keys.
  const page = await (caches.searches && partners.length === 0
    ? caches.searches.getOrLoad(JSON.stringify(query), run)
    : run());
  // What students look for that nobody sells (the operator statistics): a term's first page only.
  if (page.total === 0 && query.searchTerm && !query.startIndex) misses.record(query.searchTerm);
  return page;
}
