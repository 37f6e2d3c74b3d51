import { HOME_RECENT_COUNT, PAGE_SIZE } from '@campus-books/common/constants';
import { listingSearchSchema, type Listing } from '@campus-books/common/listing.schemas';
import type { LandingPage, LandingPageData } from '@campus-books/common/server-rendering';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { pageDemand } from '../alerts/alerts.demand';
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

/** `/`: the recent additions (GET /api/listing/get?type=sale&limit=4). */
export async function homePageData(app: FastifyInstance): Promise<LandingPageData> {
  const query = listingSearchSchema.parse({ type: 'sale', limit: String(HOME_RECENT_COUNT) });
  const page = await searchListings(app, query);
  return { kind: 'home', recent: listingsOf(page) };
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

/**
 * `/listing/{id}`: the listing as this visitor may see it, with the demand line's count, or the
 * API's 404 message.
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
  return { kind: 'listing', listing, demand: await pageDemand(app.database.db, listing) };
}
