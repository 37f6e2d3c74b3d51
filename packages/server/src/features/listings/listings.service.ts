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
  findListingsByUser,
  insertListing,
  insertListingOnce,
  setListingStatus,
  updateListingRow,
} from './listings.repository';
import { claimImages, releaseImages } from '../images/images.service';
import { enqueueListingEvent } from '../alerts/alerts.delivery';
import { searchListings as searchListingPage, type SearchPage } from './listings.search';
import { freshListing } from './listing-expiry';
import { isModerator } from '../moderation/moderators';

export const LISTING_NOT_FOUND = 'Listing not found';
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
async function releaseUnusedImages(app: FastifyInstance, urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  await releaseImages(app, urls).catch((error: unknown) =>
    app.log.warn({ err: error }, 'releasing listing images failed; the sweep will retry'),
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
  if (listing.status !== 'hidden' && listing.status !== 'removed') return listing;
  const viewer = (await app.sessions.read(request))?.user;
  if (viewer && (viewer.id === listing.userId || isModerator(app, viewer))) return listing;
  throw notFound(LISTING_NOT_FOUND);
}

/** The listing, if `user` owns it: 404 when there is none, 403 when it is someone else's. */
export async function getOwnListing(
  app: FastifyInstance,
  user: UserRow,
  id: string,
): Promise<ListingRow> {
  const listing = await getListing(app, id);
  if (listing.userId !== user.id) throw forbidden('You can only change your own listings');
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
  const fresh = freshListing(app);
  return app.database.db.transaction(async (tx) => {
    const row =
      idempotencyKey === undefined
        ? await insertListing(tx, user.id, input, fresh)
        : await insertListingOnce(tx, user.id, input, idempotencyKey, fresh);
    await enqueueListingEvent(app, tx, row.id, 'created');
    return row;
  });
}

export async function updateListing(
  app: FastifyInstance,
  listing: ListingRow,
  input: ListingUpdateInput,
): Promise<ListingRow> {
  if (listing.status === 'sold') throw conflict(RELIST_TO_EDIT);
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
      await enqueueListingEvent(app, tx, row.id, 'price-drop', Number(row.regularPrice));
    }
    return row;
  });
  if (!updated) {
    // Sold or deleted since it was read (images just claimed stay usable; the sweep frees them).
    const now = await findListingById(app.database.db, listing.id);
    throw now ? conflict(RELIST_TO_EDIT) : notFound(LISTING_NOT_FOUND);
  }
  await releaseUnusedImages(
    app,
    listing.imageUrls.filter((url) => !input.imageUrls.includes(url)),
  );
  return updated;
}

export async function markListingSold(app: FastifyInstance, listing: ListingRow): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    if (!(await setListingStatus(tx, listing.id, 'sold'))) throw conflict(UNDER_MODERATION);
    await enqueueListingEvent(app, tx, listing.id, 'sold');
  });
}

/** Back on sale (from sold or expired), confirmed now and with a new expiry. */
export async function relistListing(app: FastifyInstance, listing: ListingRow): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    if (!(await setListingStatus(tx, listing.id, 'active', freshListing(app)))) {
      throw conflict(UNDER_MODERATION);
    }
    await enqueueListingEvent(app, tx, listing.id, 'relisted');
  });
}

/** The one place a listing is deleted; its stored images are removed here too (images pipeline). */
export async function deleteListing(app: FastifyInstance, listing: ListingRow): Promise<void> {
  if (!(await deleteListingRow(app.database.db, listing.id))) throw notFound(LISTING_NOT_FOUND);
  // Files go only after the row: no listing ever points at a deleted file.
  await releaseUnusedImages(app, listing.imageUrls);
}

/** A page of search results and the search's total (listings.search.ts), from the cache when it can. */
export async function searchListings(
  app: FastifyInstance,
  query: ListingSearchQuery,
): Promise<SearchPage> {
  const caches = app.listingCaches;
  // Whole answers are kept on the embedded engine only, whose own writes empty them (one process);
  // the search checks what it takes from the other caches against its page's catalogue version.
  const run = () => searchListingPage(app.database, query, caches);
  // The parsed query lists its keys in the schema's order, so equal searches give equal keys.
  return caches.searches ? caches.searches.getOrLoad(JSON.stringify(query), run) : run();
}

export async function listSellerListings(
  app: FastifyInstance,
  user: UserRow,
  sellerId: string,
): Promise<ListingRow[]> {
  if (sellerId !== user.id) throw forbidden('You can only see your own listings here');
  return findListingsByUser(app.database.db, user.id);
}
