/**
 * A listing's moderation state (reports, a suspended seller, the moderators' actions, the seller's
 * delete of a reported listing), written for the moderation feature by the listings' owner: this
 * file and listings.repository.ts are the only writers of `listings`.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ListingStatus } from '@campus-books/common/constants';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { listings } from '../../db/schema';

/**
 * Serialises what decides a listing's moderation (reports, the seller's delete, the moderators'
 * actions) per listing, in the caller's transaction. An advisory lock, not a row lock: listing
 * writers take the catalogue version first (decision 006).
 */
export async function lockListingModeration(tx: Db, id: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${id}, 16))`);
}

/**
 * The seller's delete of a listing with open reports, or hidden or removed: the row stays for the
 * moderators (hidden from everyone else, the seller too), with its reports and images. Undefined
 * when the listing has nothing for the moderators (it may simply be deleted) or is already gone.
 */
export async function keepDeletedForModerators(
  tx: Db,
  id: string,
  now: Date,
): Promise<{ status: ListingStatus } | undefined> {
  const [row] = await rowsOf<{ status: ListingStatus }>(
    tx,
    sql`UPDATE listings SET seller_deleted_at = ${now.toISOString()}::timestamptz,
          status = CASE WHEN listings.status = 'removed' THEN 'removed' ELSE 'hidden' END,
          hidden_reason = CASE WHEN listings.status = 'hidden' THEN listings.hidden_reason
            WHEN listings.status = 'removed' THEN NULL ELSE 'reports' END
        FROM listings AS old
        WHERE listings.id = ${id} AND old.id = listings.id AND listings.seller_deleted_at IS NULL
          AND (listings.status IN ('hidden', 'removed') OR EXISTS (SELECT 1 FROM listing_reports r
            WHERE r.listing_id = listings.id AND r.resolved_at IS NULL))
        RETURNING old.status`,
  );
  return row;
}

/** Statuses a moderator's removal applies to (not one removed already). */
const STILL_UP: ListingStatus[] = ['active', 'sold', 'expired', 'hidden'];

/** Reports hid the listing, if it is still active: out of search until a moderator decides. */
export async function hideListingForReports(tx: Db, id: string): Promise<void> {
  await tx
    .update(listings)
    .set({ status: 'hidden', hiddenReason: 'reports', reviewRequestedAt: null })
    .where(and(eq(listings.id, id), eq(listings.status, 'active')));
}

/** A suspended seller's active listings are hidden, for `unhideListings` to bring back. */
export async function hideListingsOfSeller(tx: Db, userId: string): Promise<void> {
  await tx
    .update(listings)
    .set({ status: 'hidden', hiddenReason: 'suspension' })
    .where(and(eq(listings.userId, userId), eq(listings.status, 'active')));
}

/**
 * Listings hidden for `reason` back on sale, and only those: one listing whose reports were dismissed,
 * or the listings of a seller no longer suspended.
 */
export async function unhideListings(
  tx: Db,
  reason: 'reports' | 'suspension',
  which: { listingId: string } | { userId: string },
): Promise<void> {
  const whose =
    'listingId' in which ? eq(listings.id, which.listingId) : eq(listings.userId, which.userId);
  await tx
    .update(listings)
    .set({ status: 'active', hiddenReason: null, reviewRequestedAt: null })
    .where(and(whose, eq(listings.status, 'hidden'), eq(listings.hiddenReason, reason)));
}

/** A moderator's removal, once: undefined when it was removed already (or is gone). */
export async function removeListingForModerators(
  tx: Db,
  id: string,
): Promise<{ name: string; userId: string | null } | undefined> {
  const [row] = await tx
    .update(listings)
    .set({ status: 'removed', hiddenReason: null, reviewRequestedAt: null, updatedAt: new Date() })
    .where(and(eq(listings.id, id), inArray(listings.status, STILL_UP)))
    .returning({ name: listings.name, userId: listings.userId });
  return row;
}

/** A removal undone: the listing is active again (the expiry job still applies). */
export async function restoreRemovedListing(tx: Db, id: string): Promise<void> {
  await tx
    .update(listings)
    .set({ status: 'active', hiddenReason: null, updatedAt: new Date() })
    .where(eq(listings.id, id));
}

/** The seller asks for a review of a listing reports hid; the first request's time is kept. */
export async function requestListingReview(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(listings)
    .set({ reviewRequestedAt: now })
    .where(
      and(
        eq(listings.id, id),
        eq(listings.status, 'hidden'),
        eq(listings.hiddenReason, 'reports'),
        isNull(listings.reviewRequestedAt),
      ),
    );
}
