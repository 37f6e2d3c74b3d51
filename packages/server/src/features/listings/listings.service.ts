import type { FastifyInstance } from 'fastify';
import type {
  ListingCreateInput,
  ListingSearchQuery,
  ListingUpdateInput,
} from '@campus-books/common/listing.schemas';
import type { ListingRow, UserRow } from '../../db/schema';
import { forbidden, notFound } from '../../lib/errors';
import {
  deleteListingRow,
  findListingById,
  findListingsByUser,
  insertListing,
  setListingStatus,
  updateListingRow,
} from './listings.repository';
import { claimImages, releaseImages } from '../uploads/images.service';
import { searchListings as searchListingRows } from './listings.search';

export const LISTING_NOT_FOUND = 'Listing not found';

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

export async function createListing(
  app: FastifyInstance,
  user: UserRow,
  input: ListingCreateInput,
): Promise<ListingRow> {
  await checkListingImages(app, user.id, input.imageUrls);
  return insertListing(app.database.db, user.id, input);
}

export async function updateListing(
  app: FastifyInstance,
  listing: ListingRow,
  input: ListingUpdateInput,
): Promise<ListingRow> {
  await checkListingImages(app, listing.userId, input.imageUrls, listing.imageUrls);
  const updated = await updateListingRow(app.database.db, listing.id, input);
  if (!updated) throw notFound(LISTING_NOT_FOUND);
  await releaseUnusedImages(
    app,
    listing.imageUrls.filter((url) => !input.imageUrls.includes(url)),
  );
  return updated;
}

export async function markListingSold(app: FastifyInstance, listing: ListingRow): Promise<void> {
  await setListingStatus(app.database.db, listing.id, 'sold');
}

export async function relistListing(app: FastifyInstance, listing: ListingRow): Promise<void> {
  await setListingStatus(app.database.db, listing.id, 'active');
}

/** The one place a listing is deleted; its stored images are removed here too (images pipeline). */
export async function deleteListing(app: FastifyInstance, listing: ListingRow): Promise<void> {
  await deleteListingRow(app.database.db, listing.id);
  // Files go only after the row: no listing ever points at a deleted file.
  await releaseUnusedImages(app, listing.imageUrls);
}

export async function searchListings(
  app: FastifyInstance,
  query: ListingSearchQuery,
): Promise<ListingRow[]> {
  const caches = app.listingCaches;
  const run = () => searchListingRows(app.database.db, query, caches);
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
