import { HOME_RECENT_COUNT, OTHER_COPIES_LIMIT, PAGE_SIZE } from '@campus-books/common/constants';
import { listingSearchSchema, type Listing } from '@campus-books/common/listing.schemas';
import type { LandingPage, LandingPageData } from '@campus-books/common/server-rendering';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { mostWanted, pageDemand } from '../alerts/alerts.demand';
import { jsonArray } from './listing-json-answer';
import type { SearchPage } from './search/search-listings';
import { getVisibleListingJson, searchListings } from './listings.service';

// The data of the server-rendered listing pages (docs/decisions/012): the same service calls and the
// same serializer as GET /api/listing/get and /api/listing/get/{id}, so the page's first screen and
// the API's answer are one thing.

/** A search page's listings as the API answers them (their JSON is written by the database). */
const listingsOf = (page: SearchPage): Listing[] =>
  JSON.parse(jsonArray(page.listings)) as Listing[];

/** A search the API would answer, for its first page; null when the API would refuse the query. */
async function firstSearchPage(app: FastifyInstance, query: Record<string, string>) {
  const parsed = listingSearchSchema.safeParse({
    ...query,
    startIndex: '0',
    limit: String(PAGE_SIZE),
  });
  if (!parsed.success) return null;
  return searchListings(app, parsed.data);
}

/**
 * `/`: the recent additions (GET /api/listing/get?type=sale&limit=4) and "Most wanted this week"
 * (GET /api/alerts/most-wanted).
 */
export async function homePageData(app: FastifyInstance): Promise<LandingPageData> {
  const query = listingSearchSchema.parse({ type: 'sale', limit: String(HOME_RECENT_COUNT) });
  const [page, wanted] = await Promise.all([
    searchListings(app, query),
    mostWanted(app.database.db, new Date()),
  ]);
  return { kind: 'home', recent: listingsOf(page), mostWanted: wanted };
}

/** `/search?…`: the first page of results and the total the X-Total-Count headers carry. */
export async function searchPageData(
  app: FastifyInstance,
  page: Extract<LandingPage, { kind: 'search' }>,
): Promise<LandingPageData | null> {
  const results = await firstSearchPage(app, page.query);
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

/** The other copies of a book (GET /api/listing/get?searchTerm={isbn}&limit=OTHER_COPIES_LIMIT). */
async function otherCopiesOf(app: FastifyInstance, isbn: string): Promise<Listing[]> {
  const query = listingSearchSchema.parse({ searchTerm: isbn, limit: String(OTHER_COPIES_LIMIT) });
  return listingsOf(await searchListings(app, query));
}

/**
 * `/listing/{id}`: the listing as this visitor may see it, with the demand line's count and the
 * other copies of its book, or the API's 404 message.
 */
export async function listingPageData(
  app: FastifyInstance,
  page: Extract<LandingPage, { kind: 'listing' }>,
  request: FastifyRequest,
): Promise<LandingPageData> {
  let listing: Listing;
  try {
    listing = JSON.parse(await getVisibleListingJson(app, request, page.listingId)) as Listing;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) {
      return { kind: 'listing', listing: null, message: error.message };
    }
    throw error;
  }
  const [demand, otherCopies] = await Promise.all([
    pageDemand(app.database.db, listing),
    listing.isbn ? otherCopiesOf(app, listing.isbn) : null,
  ]);
  return { kind: 'listing', listing, demand, otherCopies };
}
