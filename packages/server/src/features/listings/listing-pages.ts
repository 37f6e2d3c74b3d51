import { OTHER_COPIES_LIMIT } from '@campus-books/common/constants';
import { listingSearchSchema, type Listing } from '@campus-books/common/listing.schemas';
import type { LandingPage, LandingPageData } from '@campus-books/common/server-rendering';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { pageDemand } from '../alerts/alerts.demand';
import { listingsOf } from '../search/search-pages';
import { searchListings, type SearchDeps } from '../search/search.service';
import type { ListingDeps } from './listing-deps';
import { getVisibleListingAnswer } from './listings.service';

// The data of the server-rendered listing page (docs/decisions/012): the same service calls and the
// same serializer as GET /api/listing/get/{id} and GET /api/listing/get, so the page's first screen
// and the API's answers are one thing.

/** The other copies of a book (GET /api/listing/get?searchTerm={isbn}&limit=OTHER_COPIES_LIMIT). */
async function otherCopiesOf(search: SearchDeps, isbn: string): Promise<Listing[]> {
  const query = listingSearchSchema.parse({ searchTerm: isbn, limit: String(OTHER_COPIES_LIMIT) });
  return listingsOf(await searchListings(search, query));
}

/**
 * `/listing/{id}`: the listing as this visitor may see it, with the demand line's count and the
 * other copies of its book, or the API's 404 message.
 */
export async function listingPageData(
  deps: ListingDeps & { search: SearchDeps },
  page: Extract<LandingPage, { kind: 'listing' }>,
  request: FastifyRequest,
): Promise<LandingPageData> {
  let listing: Listing;
  try {
    listing = JSON.parse(
      (await getVisibleListingAnswer(deps, request, page.listingId)).json,
    ) as Listing;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) {
      return { kind: 'listing', listing: null, message: error.message };
    }
    throw error;
  }
  const [demand, otherCopies] = await Promise.all([
    pageDemand(deps.db, listing),
    listing.isbn ? otherCopiesOf(deps.search, listing.isbn) : null,
  ]);
  return { kind: 'listing', listing, demand, otherCopies };
}
