import { desc, eq, inArray, isNull } from 'drizzle-orm';
import type {
  ModerationLogEntry,
  ModerationQueueItem,
} from '@campus-books/common/moderation.schemas';
import type { Db } from '../../db/database';
import type { Mailer } from '../../plugins/mail';
import type { ImageDeps } from '../images/images.service';
import { listings, users, type ListingRow, type UserRow } from '../../db/schema';
import { listingReports, moderationLog } from '../../db/moderation.schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { toListing } from '../listings/listing.serializer';
import { deleteSessionsOfUser } from '../../db/sessions.repository';
import { deleteListingRow, isListingId } from '../listings/listings.repository';
import {
  hideListingsOfSeller,
  lockListingModeration,
  removeListingForModerators,
  requestListingReview,
  restoreRemovedListing,
  unhideListings,
} from '../listings/listing-moderation.repository';
import {
  closeOpenReports,
  findUserEmail,
  logModeratorAction,
  userExists,
} from './moderation.repository';
import { suspendUserRow, unsuspendUserRow } from '../accounts/users.repository';
import { LISTING_NOT_FOUND } from '../listings/listing-visibility';
import { releaseUnusedImages } from '../listings/listings.service';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Action = ModerationLogEntry['action'];

const NOTHING_TO_DISMISS = 'This listing has no open reports';
const ALREADY_REMOVED = 'This listing is already removed';
const USER_NOT_FOUND = 'User not found';
const NOT_REMOVED = 'This listing is not removed';

/**
 * What the moderators' actions use (built once with their routes): the database, the listing
 * caches a change empties, the images a deletion releases, and the mailer that tells a seller.
 */
export interface ModerationDeps {
  db: Db;
  caches: { invalidate(): void };
  images: ImageDeps;
  mailer: Pick<Mailer, 'sendInBackground'>;
}

function log(
  tx: Tx,
  moderator: UserRow,
  action: Action,
  target: { listingId?: string; userId?: string; reason?: string },
): Promise<void> {
  return logModeratorAction(tx, moderator, action, target);
}

/**
 * Listings with open reports: those whose seller asked for a review first (in the order asked),
 * then by oldest report, with every open report's reason and note; a listing its seller deleted
 * while reported is marked so.
 */
export async function moderationQueue(db: Db): Promise<ModerationQueueItem[]> {
  const open = await db
    .select()
    .from(listingReports)
    .where(isNull(listingReports.resolvedAt))
    .orderBy(listingReports.createdAt)
    .limit(1000);
  if (open.length === 0) return [];
  const ids = [...new Set(open.map((r) => r.listingId))];
  const rows = await db
    .select({ listing: listings, seller: users })
    .from(listings)
    .leftJoin(users, eq(users.id, listings.userId))
    .where(inArray(listings.id, ids));
  const byId = new Map(rows.map((r) => [r.listing.id, r]));
  const asked = (id: string) => byId.get(id)?.listing.reviewRequestedAt?.getTime() ?? Infinity;
  // A stable sort: listings without a request keep their oldest-report order.
  const ordered = [...ids].sort((a, b) => asked(a) - asked(b) || 0);
  return ordered.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        listing: toListing(row.listing),
        seller: row.seller && {
          _id: row.seller.id,
          username: row.seller.username,
          email: row.seller.email,
          suspended: row.seller.suspendedAt !== null,
        },
        reports: open
          .filter((r) => r.listingId === id)
          .map((r) => ({
            reason: r.reason,
            note: r.note,
            createdAt: r.createdAt.toISOString(),
            countsTowardHide: r.countsTowardHide,
          })),
        deletedBySellerAt: row.listing.sellerDeletedAt?.toISOString() ?? null,
        reviewRequestedAt: row.listing.reviewRequestedAt?.toISOString() ?? null,
      },
    ];
  });
}

/**
 * The reports were unfounded: closed, and the listing back in search if they had hidden it; a
 * listing its seller deleted while reported is deleted now, images too.
 */
export async function dismissReports(
  deps: ModerationDeps,
  moderator: UserRow,
  listingId: string,
): Promise<void> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  const images = await deps.db.transaction(async (tx) => {
    await lockListingModeration(tx, listingId);
    const closed = await closeOpenReports(tx, listingId, new Date());
    if (closed.length === 0) {
      const [listing] = await tx
        .select({ id: listings.id })
        .from(listings)
        .where(eq(listings.id, listingId));
      throw listing ? conflict(NOTHING_TO_DISMISS) : notFound(LISTING_NOT_FOUND);
    }
    await log(tx, moderator, 'dismiss', { listingId });
    const deleted = await deleteListingRow(tx, listingId, true);
    if (deleted) return deleted;
    await unhideListings(tx, 'reports', { listingId });
    return [];
  });
  deps.caches.invalidate();
  await releaseUnusedImages(deps.images, images);
}

/** Takes a listing down for good and tells its seller why. */
export async function removeListing(
  deps: ModerationDeps,
  moderator: UserRow,
  listingId: string,
  reason: string,
): Promise<void> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  const removed = await deps.db.transaction(async (tx) => {
    await lockListingModeration(tx, listingId);
    const [existing] = await tx
      .select({ status: listings.status, sellerDeletedAt: listings.sellerDeletedAt })
      .from(listings)
      .where(eq(listings.id, listingId));
    if (!existing) throw notFound(LISTING_NOT_FOUND);
    const row = await removeListingForModerators(tx, listingId);
    if (!row) throw conflict(ALREADY_REMOVED);
    await closeOpenReports(tx, listingId, new Date());
    await log(tx, moderator, 'remove', { listingId, userId: row.userId ?? undefined, reason });
    const deletedBySeller = existing.sellerDeletedAt !== null || row.userId === null;
    return {
      name: row.name,
      email: deletedBySeller || !row.userId ? undefined : await findUserEmail(tx, row.userId),
    };
  });
  deps.caches.invalidate();
  if (removed.email) {
    deps.mailer.sendInBackground({
      to: removed.email,
      subject: `Your listing "${removed.name}" was removed`,
      text: [
        `The campus moderators removed your listing "${removed.name}".`,
        '',
        `Why: ${reason}`,
        '',
        'If you think this is a mistake, reply to the moderators of your campus.',
      ].join('\n'),
    });
  }
}

/**
 * A removal made by mistake undone: the listing is active again (the expiry job still applies). One
 * its seller deleted is deleted now instead, as the seller asked.
 */
export async function restoreListing(
  deps: ModerationDeps,
  moderator: UserRow,
  listingId: string,
): Promise<void> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  const images = await deps.db.transaction(async (tx) => {
    await lockListingModeration(tx, listingId);
    const [existing] = await tx
      .select({
        status: listings.status,
        userId: listings.userId,
        sellerDeletedAt: listings.sellerDeletedAt,
      })
      .from(listings)
      .where(eq(listings.id, listingId));
    if (!existing) throw notFound(LISTING_NOT_FOUND);
    if (existing.status !== 'removed') throw conflict(NOT_REMOVED);
    await log(tx, moderator, 'restore', { listingId, userId: existing.userId ?? undefined });
    if (existing.sellerDeletedAt !== null)
      return (await deleteListingRow(tx, listingId, true)) ?? [];
    await restoreRemovedListing(tx, listingId);
    return [];
  });
  deps.caches.invalidate();
  await releaseUnusedImages(deps.images, images);
}

/**
 * A suspended seller cannot sign in or list (their sessions end, sign-in answers 403) and their
 * active listings are hidden; unsuspending restores exactly those.
 */
export async function suspendUser(
  deps: ModerationDeps,
  moderator: UserRow,
  userId: string,
  reason: string,
): Promise<void> {
  if (!isListingId(userId)) throw notFound(USER_NOT_FOUND);
  if (userId === moderator.id) throw badRequest('You cannot suspend yourself');
  await deps.db.transaction(async (tx) => {
    if (!(await suspendUserRow(tx, userId)))
      throw (await userExists(tx, userId))
        ? conflict('Already suspended')
        : notFound(USER_NOT_FOUND);
    await hideListingsOfSeller(tx, userId);
    await deleteSessionsOfUser(tx, userId);
    await log(tx, moderator, 'suspend', { userId, reason });
  });
  deps.caches.invalidate();
}

export async function unsuspendUser(
  deps: ModerationDeps,
  moderator: UserRow,
  userId: string,
): Promise<void> {
  if (!isListingId(userId)) throw notFound(USER_NOT_FOUND);
  await deps.db.transaction(async (tx) => {
    if (!(await unsuspendUserRow(tx, userId)))
      throw (await userExists(tx, userId)) ? conflict('Not suspended') : notFound(USER_NOT_FOUND);
    await unhideListings(tx, 'suspension', { userId });
    await log(tx, moderator, 'unsuspend', { userId });
  });
  deps.caches.invalidate();
}

/** The audit log, newest first (read-only: no route changes it, and the table refuses changes). */
export async function moderationLogEntries(db: Db): Promise<ModerationLogEntry[]> {
  const rows = await db
    .select()
    .from(moderationLog)
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
    .limit(500);
  return rows.map((r) => ({
    _id: r.id,
    moderatorEmail: r.moderatorEmail,
    action: r.action,
    listingId: r.listingId,
    ratingId: r.ratingId,
    conversationId: r.conversationId,
    userId: r.userId,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
  }));
}

const NOT_HIDDEN_BY_REPORTS = 'Only a listing that reports hid can be reviewed';

/**
 * The seller of a listing that reports hid asks the moderators to look: it goes first in their
 * queue, in the order asked. Asking again changes nothing (the first request's place is kept).
 */
export async function requestReview(
  { db, now }: { db: Db; now: () => Date },
  listing: ListingRow,
): Promise<void> {
  if (listing.status !== 'hidden' || listing.hiddenReason !== 'reports') {
    throw conflict(NOT_HIDDEN_BY_REPORTS);
  }
  await requestListingReview(db, listing.id, now());
}
