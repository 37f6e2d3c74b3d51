import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ListingCreateInput,
  ListingSearchQuery,
  ListingUpdateInput,
} from '@campus-books/common/listing.schemas';
import type { ListingRow, UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import {
  deleteListingRow,
  findListingById,
  insertListing,
  insertListingOnce,
  isListingId,
  keepDeletedForModerators,
  lockListingModeration,
  setListingStatus,
  updateListingRow,
} from './listings.repository';
import { findListingsByUser, findStoredListing } from './listings.queries';
import { isVisibleTo, type ListingViewer } from './listing-visibility';
import { claimImages, releaseImages, type ImageDeps } from '../images/images.service';
import { enqueueListingEvent } from '../alerts/alerts.delivery';
import { searchListings as searchListingPage, type SearchPage } from './search/search-listings';
import { freshListing } from './listing-freshness';
import { toListing } from './listing.serializer';
import { isModerator } from '../moderation/moderators';
import { logSellerDelete } from '../moderation/moderation.repository';

export const LISTING_NOT_FOUND = 'Listing not found';
/** Listings created per account and hour (RATE_LIMIT_LISTINGS_PER_ACCOUNT): single creates and drafts published. */
export const LISTING_CREATE_LIMIT = {
  name: 'listing-create:account',
  windowMs: 60 * 60_000,
} as const;
/** A sold listing is frozen: the owner relists it to change it. */
export const RELIST_TO_EDIT = 'Relist it first to edit';
/** A hidden or removed listing is the moderators' until they look. */
export const UNDER_MODERATION = 'This listing is with the campus moderators';

/**
 * Hook of the images pipeline: every image URL a listing is saved with passes through here. Only the
 * caller's own processed uploads are accepted (and marked attached); `keep` are the URLs the listing
 * already holds, which may be sent again unchanged.
 */
export async function checkListingImages(
  app: FastifyInstance,
  userId: string,
  urls: string[],
  keep: string[] = [],
): Promise<void> {
  await claimImages(app.database.db, userId, urls, keep);
}

/** After a save: deletes the stored files of images nothing uses any more (failures: the sweep retries). */
export async function releaseUnusedImages(images: ImageDeps, urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  await releaseImages(images, urls).catch((error: unknown) =>
    images.log.warn({ err: error }, 'releasing listing images failed; the sweep will retry'),
  );
}

export async function getListing(app: FastifyInstance, id: string): Promise<ListingRow> {
  const listing = await findListingById(app.database.db, id);
  if (!listing) throw notFound(LISTING_NOT_FOUND);
  return listing;
}

/**
 * A listing's page: a hidden or removed listing (reports, a suspended seller, a moderator) is a 404
 * for everyone but its seller and the moderators; an expired or sold one is shown as such.
 */
export async function getVisibleListing(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<ListingRow> {
  const listing = await getListing(app, id);
  if (isVisibleTo(listing, await viewerOf(app, request))) return listing;
  throw notFound(LISTING_NOT_FOUND);
}

/**
 * A listing's answer as JSON text (GET /api/listing/get/{id}), by the same rule: the stored answer
 * the database wrote with the row, on the embedded engine from the listing caches (a write empties
 * them), so the most opened read parses and serializes nothing. A public listing needs no session.
 */
export async function getVisibleListingJson(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<string> {
  const cache = app.listingCaches.listings;
  const load = async () => (await findStoredListing(app.database.db, id)) ?? null;
  const stored = await (cache && isListingId(id)
    ? cache.getOrLoad(id.toLowerCase(), load)
    : load());
  if (!stored) throw notFound(LISTING_NOT_FOUND);
  if (!isVisibleTo(stored, null) && !isVisibleTo(stored, await viewerOf(app, request))) {
    throw notFound(LISTING_NOT_FOUND);
  }
  return stored.json ?? JSON.stringify(toListing(await getListing(app, id)));
}

/** The visibility rule's viewer of a request: its signed-in user (a moderator or not), or null. */
export async function viewerOf(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<ListingViewer | null> {
  const user = (await app.sessions.read(request))?.user;
  return user ? { id: user.id, moderator: isModerator(app.config.trust, user) } : null;
}

/** The listing, if `user` owns it: 404 when there is none, 403 when it is someone else's. */
export async function getOwnListing(
  app: FastifyInstance,
  user: UserRow,
  id: string,
): Promise<ListingRow> {
  const listing = await getListing(app, id);
  if (listing.userId !== user.id) throw forbidden('You can only change your own listings');
  // Deleted by its seller while reported: gone for the seller, kept for the moderators.
  if (!isVisibleTo(listing, { id: user.id, moderator: false })) throw notFound(LISTING_NOT_FOUND);
  return listing;
}

/**
 * With an `idempotencyKey` (the Idempotency-Key header), a repeated create by the same user answers
 * the listing the key already made instead of making another (docs/decisions/007-idempotent-create.md).
 */
export async function createListing(
  app: FastifyInstance,
  user: UserRow,
  input: ListingCreateInput,
  idempotencyKey?: string,
): Promise<ListingRow> {
  await checkListingImages(app, user.id, input.imageUrls);
  // The alerts' matching job is written with the listing: both or neither (decision 010).
  const fresh = freshListing(app.config.trust, app.jobs.now());
  return app.database.db.transaction(async (tx) => {
    const row =
      idempotencyKey === undefined
        ? await insertListing(tx, user.id, input, fresh)
        : await insertListingOnce(tx, user.id, input, idempotencyKey, fresh);
    await enqueueListingEvent(app.jobs, tx, row.id, 'created');
    return row;
  });
}

export async function updateListing(
  app: FastifyInstance,
  listing: ListingRow,
  input: ListingUpdateInput,
): Promise<ListingRow> {
  if (listing.status === 'sold') throw conflict(RELIST_TO_EDIT);
  if (listing.userId === null) throw notFound(LISTING_NOT_FOUND);
  await checkListingImages(app, listing.userId, input.imageUrls, listing.imageUrls);
  // An omitted publisher's cover stays marked only while the listing still shows that image.
  const publisherCover =
    input.publisherCover !== undefined || listing.publisherCoverUrl === null
      ? input.publisherCover
      : input.imageUrls.includes(listing.publisherCoverUrl)
        ? undefined
        : null;
  const updated = await app.database.db.transaction(async (tx) => {
    const row = await updateListingRow(tx, listing.id, { ...input, publisherCover });
    // A lower price may now be under an alert's maximum, and savers hear of it.
    if (row && Number(row.regularPrice) < Number(listing.regularPrice)) {
      await enqueueListingEvent(app.jobs, tx, row.id, 'price-drop', Number(row.regularPrice));
    }
    return row;
  });
  if (!updated) {
    // Sold or deleted since it was read (images just claimed stay usable; the sweep frees them).
    const now = await findListingById(app.database.db, listing.id);
    throw now ? conflict(RELIST_TO_EDIT) : notFound(LISTING_NOT_FOUND);
  }
  await releaseUnusedImages(
    app.images,
    listing.imageUrls.filter((url) => !input.imageUrls.includes(url)),
  );
  return updated;
}

/** Sold; `soldTo` is the buyer the seller named among those who wrote (features/conversations). */
export async function markListingSold(
  app: FastifyInstance,
  listing: ListingRow,
  soldTo: string | null = null,
): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    if (!(await setListingStatus(tx, listing.id, 'sold', undefined, soldTo))) {
      throw conflict(UNDER_MODERATION);
    }
    await enqueueListingEvent(app.jobs, tx, listing.id, 'sold');
  });
}

/** Back on sale (from sold or expired), confirmed now and with a new expiry. */
export async function relistListing(app: FastifyInstance, listing: ListingRow): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    if (
      !(await setListingStatus(
        tx,
        listing.id,
        'active',
        freshListing(app.config.trust, app.jobs.now()),
      ))
    ) {
      throw conflict(UNDER_MODERATION);
    }
    await enqueueListingEvent(app.jobs, tx, listing.id, 'relisted');
  });
}

/**
 * The one place a seller deletes a listing; its stored images are removed here too (images
 * pipeline). A listing with open reports, or hidden or removed, is kept for the moderators instead
 * (issue 26): gone for its seller and everyone else, its reports and images kept, an audit line
 * written; the moderators' dismissal deletes it then (moderation.service.ts). Decided under the
 * listing's moderation lock, so a report arriving at the same moment is counted on one side.
 */
export async function deleteListing(
  app: FastifyInstance,
  seller: UserRow,
  listing: ListingRow,
): Promise<void> {
  const deleted = await app.database.db.transaction(async (tx) => {
    await lockListingModeration(tx, listing.id);
    const kept = await keepDeletedForModerators(tx, listing.id, app.jobs.now());
    if (kept) {
      await logSellerDelete(tx, seller, listing.id, kept.status);
      return [];
    }
    return deleteListingRow(tx, listing.id);
  });
  if (!deleted) throw notFound(LISTING_NOT_FOUND);
  app.listingCaches.invalidate();
  // Files go only after the row: no listing ever points at a deleted file.
  await releaseUnusedImages(app.images, deleted);
}

/** A page of search results and the search's total (search/search-listings.ts), from the cache when it can. */
export async function searchListings(
  app: FastifyInstance,
  query: ListingSearchQuery,
): Promise<SearchPage> {
  const caches = app.listingCaches;
  // Whole answers are kept on the embedded engine only, whose own writes empty them (one process);
  // the search checks what it takes from the other caches against its page's catalogue version.
  const run = () => searchListingPage(app.database, query, caches);
  // The parsed query lists its keys in the schema's order, so equal searches give equal keys.
  const page = await (caches.searches
    ? caches.searches.getOrLoad(JSON.stringify(query), run)
    : run());
  // What students look for that nobody sells (the operator statistics): a term's first page only.
  if (page.total === 0 && query.searchTerm && !query.startIndex) {
    app.searchMisses.record(query.searchTerm);
  }
  return page;
}

export async function listSellerListings(
  app: FastifyInstance,
  user: UserRow,
  sellerId: string,
): Promise<ListingRow[]> {
  if (sellerId !== user.id) throw forbidden('You can only see your own listings here');
  return findListingsByUser(app.database.db, user.id);
}
