import { HOME_RECENT_COUNT, PAGE_SIZE } from '@campus-books/common/constants';
import { listingSearchSchema, type Listing } from '@campus-books/common/listing.schemas';
import type { LandingPage, LandingPageData } from '@campus-books/common/server-rendering';
import { mostWanted } from '../alerts/alerts.demand';
import { jsonArray } from '../listings/listing-json-answer';
import type { SearchPage } from './search-listings';
import { searchListings, type SearchDeps } from './search.service';

// The data of the server-rendered search pages (docs/decisions/012): the same service call and the
// same stored answers as GET /api/listing/get, so the page's first screen and the API's answer are
// one thing.

/** A search page's listings as the API answers them (their JSON is written by the database). */
export const listingsOf = (page: SearchPage): Listing[] =>
  JSON.parse(jsonArray(page.listings)) as Listing[];

/** A search the API would answer, for its first page; null when the API would refuse the query. */
async function firstSearchPage(deps: SearchDeps, query: Record<string, string>) {
  const parsed = listingSearchSchema.safeParse({
    ...query,
    startIndex: '0',
    limit: String(PAGE_SIZE),
  });
  if (!parsed.success) return null;
  return searchListings(deps, parsed.data);
}

/**
 * `/`: the recent additions (GET /api/listing/get?type=sale&limit=4) and "Most wanted this week"
 * (GET /api/alerts/most-wanted).
 */
export async function homePageData(deps: SearchDeps): Promise<LandingPageData> {
  const query = listingSearchSchema.parse({ type: 'sale', limit: String(HOME_RECENT_COUNT) });
  const [page, wanted] = await Promise.all([
    searchListings(deps, query),
    mostWanted(deps.database.db, new Date()),
  ]);
  return { kind: 'home', recent: listingsOf(page), mostWanted: wanted };
}

/** `/search?…`: the first page of results and the total the X-Total-Count headers carry. */
export async function searchPageData(
  deps: SearchDeps,
  page: Extract<LandingPage, { kind: 'search' }>,
): Promise<LandingPageData | null> {
  const results = await firstSearchPage(deps, page.query);
  if (!results) return null;
  return {
    kind: 'search',
    firstPage: {
      listings: listingsOf(results),
      total: results.total,
      isTotalCapped: results.isTotalCapped,
    },
  };
}
