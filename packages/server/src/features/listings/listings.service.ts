import type { FastifyRequest } from 'fastify';
import type { ListingCreateInput, ListingUpdateInput } from '@campus-books/common/listing.schemas';
import type { ListingRow, UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import {
  deleteListingRow,
  findListingById,
  insertListing,
  insertListingOnce,
  isListingId,
  setListingStatus,
  updateListingRow,
} from './listings.repository';
import { keepDeletedForModerators, lockListingModeration } from './listing-moderation.repository';
import { findListingsByUser, findStoredListing, KeptListing } from './listings.queries';
import { ReadyAnswer } from '../../lib/ready-answer';
import { isVisibleTo, LISTING_NOT_FOUND, viewerOf } from './listing-visibility';
import { claimImages, releaseImages, type ImageDeps } from '../images/images.service';
import { enqueueListingEvent } from '../alerts/alerts.delivery';
import type { ListingDeps } from './listing-deps';
import { freshListing } from './listing-freshness';
import { toListing } from './listing.serializer';
import { logSellerDelete } from '../moderation/moderation.repository';

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
  deps: ListingDeps,
  userId: string,
  urls: string[],
  keep: string[] = [],
): Promise<void> {
  await claimImages(deps.db, userId, urls, keep);
}

/** After a save: deletes the stored files of images nothing uses any more (failures: the sweep retries). */
export async function releaseUnusedImages(images: ImageDeps, urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  await releaseImages(images, urls).catch((error: unknown) =>
    images.log.warn({ err: error }, 'releasing listing images failed; the sweep will retry'),
  );
}

export async function getListing(deps: Pick<ListingDeps, 'db'>, id: string): Promise<ListingRow> {
  const listing = await findListingById(deps.db, id);
  if (!listing) throw notFound(LISTING_NOT_FOUND);
  return listing;
}

/**
 * A listing's page: a hidden or removed listing (reports, a suspended seller, a moderator) is a 404
 * for everyone but its seller and the moderators; an expired or sold one is shown as such.
 */
export async function getVisibleListing(
  deps: ListingDeps,
  request: FastifyRequest,
  id: string,
): Promise<ListingRow> {
  const listing = await getListing(deps, id);
  if (isVisibleTo(listing, await viewerOf(deps, request))) return listing;
  throw notFound(LISTING_NOT_FOUND);
}

/**
 * A listing's answer (GET /api/listing/get/{id}), by the same rule: the stored answer the database
 * wrote with the row, kept until the catalogue changes (search/listing-caches.ts) with its bytes
 * ready to send, so the most opened read parses, serializes and compresses nothing. A public
 * listing needs no session.
 */
export async function getVisibleListingAnswer(
  deps: ListingDeps,
  request: FastifyRequest,
  id: string,
): Promise<ReadyAnswer> {
  const load = async () => {
    const stored = await findStoredListing(deps.db, id);
    return stored ? new KeptListing(stored) : null;
  };
  const kept = await (isListingId(id) ? deps.caches.listing(id.toLowerCase(), load) : load());
  if (!kept) throw notFound(LISTING_NOT_FOUND);
  if (!isVisibleTo(kept, null) && !isVisibleTo(kept, await viewerOf(deps, request))) {
    throw notFound(LISTING_NOT_FOUND);
  }
  return kept.ready ?? new ReadyAnswer(JSON.stringify(toListing(await getListing(deps, id))));
}

/** The listing, if `user` owns it: 404 when there is none, 403 when it is someone else's. */
export async function getOwnListing(
  deps: Pick<ListingDeps, 'db'>,
  user: UserRow,
  id: string,
): Promise<ListingRow> {
  const listing = await getListing(deps, id);
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
  deps: ListingDeps,
  user: UserRow,
  input: ListingCreateInput,
  idempotencyKey?: string,
): Promise<ListingRow> {
  await checkListingImages(deps, user.id, input.imageUrls);
  // The alerts' matching job is written with the listing: both or neither (decision 010).
  const fresh = freshListing(deps.trust, deps.now());
  return deps.db.transaction(async (tx) => {
    const row =
      idempotencyKey === undefined
        ? await insertListing(tx, user.id, input, fresh)
        : await insertListingOnce(tx, user.id, input, idempotencyKey, fresh);
    await enqueueListingEvent(deps.jobs, tx, row.id, 'created');
    return row;
  });
}

export async function updateListing(
  deps: ListingDeps,
  listing: ListingRow,
  input: ListingUpdateInput,
): Promise<ListingRow> {
  if (listing.status === 'sold') throw conflict(RELIST_TO_EDIT);
  if (listing.userId === null) throw notFound(LISTING_NOT_FOUND);
  await checkListingImages(deps, listing.userId, input.imageUrls, listing.imageUrls);
  // An omitted publisher's cover stays marked only while the listing still shows that image.
  const publisherCover =
    input.publisherCover !== undefined || listing.publisherCoverUrl === null
      ? input.publisherCover
      : input.imageUrls.includes(listing.publisherCoverUrl)
        ? undefined
        : null;
  const updated = await deps.db.transaction(async (tx) => {
    const row = await updateListingRow(tx, listing.id, { ...input, publisherCover });
    // A lower price may now be under an alert's maximum, and savers hear of it.
    if (row && Number(row.regularPrice) < Number(listing.regularPrice)) {
      await enqueueListingEvent(deps.jobs, tx, row.id, 'price-drop', Number(row.regularPrice));
    }
    return row;
  });
  if (!updated) {
    // Sold or deleted since it was read (images just claimed stay usable; the sweep frees them).
    const now = await findListingById(deps.db, listing.id);
    throw now ? conflict(RELIST_TO_EDIT) : notFound(LISTING_NOT_FOUND);
  }
  await releaseUnusedImages(
    deps.images,
    listing.imageUrls.filter((url) => !input.imageUrls.includes(url)),
  );
  return updated;
}

/** Sold; `soldTo` is the buyer the seller named among those who wrote (features/conversations). */
export async function markListingSold(
  deps: Pick<ListingDeps, 'db' | 'jobs'>,
  listing: ListingRow,
  soldTo: string | null = null,
): Promise<void> {
  await markListingsSold(deps, [listing], soldTo);
}

/**
 * Several listings sold together to one buyer (the books of a held set, issue 44): all in one
 * transaction, or none when one of them is with the moderators.
 */
export async function markListingsSold(
  deps: Pick<ListingDeps, 'db' | 'jobs'>,
  sold: readonly ListingRow[],
  soldTo: string | null,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    for (const listing of sold) {
      if (!(await setListingStatus(tx, listing.id, 'sold', undefined, soldTo))) {
        throw conflict(UNDER_MODERATION);
      }
      await enqueueListingEvent(deps.jobs, tx, listing.id, 'sold');
    }
  });
}

/** Back on sale (from sold or expired), confirmed now and with a new expiry. */
export async function relistListing(deps: ListingDeps, listing: ListingRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await setListingStatus(tx, listing.id, 'active', freshListing(deps.trust, deps.now())))) {
      throw conflict(UNDER_MODERATION);
    }
    await enqueueListingEvent(deps.jobs, tx, listing.id, 'relisted');
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
  deps: ListingDeps,
  seller: UserRow,
  listing: ListingRow,
): Promise<void> {
  const deleted = await deps.db.transaction(async (tx) => {
    await lockListingModeration(tx, listing.id);
    const kept = await keepDeletedForModerators(tx, listing.id, deps.now());
    if (kept) {
      await logSellerDelete(tx, seller, listing.id, kept.status);
      return [];
    }
    return deleteListingRow(tx, listing.id);
  });
  if (!deleted) throw notFound(LISTING_NOT_FOUND);
  deps.caches.invalidate();
  // Files go only after the row: no listing ever points at a deleted file.
  await releaseUnusedImages(deps.images, deleted);
}

export async function listSellerListings(
  deps: Pick<ListingDeps, 'db'>,
  user: UserRow,
  sellerId: string,
): Promise<ListingRow[]> {
  if (sellerId !== user.id) throw forbidden('You can only see your own listings here');
  return findListingsByUser(deps.db, user.id);
}
