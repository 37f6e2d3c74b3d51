import type { Listing } from '@campus-books/common/listing.schemas';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { listings } from '../../db/schema';
import { savedListings } from '../../db/saved.schema';
import { toListing } from '../listings/listing.serializer';
import { visibleTo, type ListingViewer } from '../listings/listing-visibility';

/**
 * The visibility rule as the saved listings apply it: the saver reads as a student (moderators
 * included), so a hidden or removed listing is out of every list but its own seller's, and back in
 * it if a moderator puts it back.
 */
const saverOf = (userId: string): ListingViewer => ({ id: userId, moderator: false });

/** A student's saved listings, the most recently saved first (GET /api/saved/get). */
export async function findSavedListings(db: Db, userId: string): Promise<Listing[]> {
  const rows = await db
    .select({ listing: listings })
    .from(savedListings)
    .innerJoin(listings, eq(listings.id, savedListings.listingId))
    .where(and(eq(savedListings.userId, userId), visibleTo(saverOf(userId))))
    .orderBy(desc(savedListings.createdAt), desc(listings.id));
  return rows.map((r) => toListing(r.listing));
}

/**
 * Saves a listing the saver may see; false when there is none (unknown, hidden or removed). One
 * statement: the visibility check and the insert see the same row, and copies of the request
 * arriving at once save it once (the primary key, ON CONFLICT DO NOTHING).
 */
export async function saveListing(db: Db, userId: string, listingId: string): Promise<boolean> {
  const [row] = await rowsOf<{ found: boolean }>(
    db,
    sql`
    WITH visible AS (
      SELECT ${listings.id} AS id FROM ${listings}
      WHERE ${listings.id} = ${listingId} AND ${visibleTo(saverOf(userId))}
    ), saved AS (
      INSERT INTO saved_listings (user_id, listing_id) SELECT ${userId}, id FROM visible
      ON CONFLICT DO NOTHING
    )
    SELECT EXISTS (SELECT 1 FROM visible) AS found`,
  );
  return row?.found === true;
}

/** Takes a listing out of a student's saved ones; false when it was not among them. */
export async function unsaveListing(db: Db, userId: string, listingId: string): Promise<boolean> {
  const removed = await db
    .delete(savedListings)
    .where(and(eq(savedListings.userId, userId), eq(savedListings.listingId, listingId)))
    .returning({ listingId: savedListings.listingId });
  return removed.length > 0;
}

/** Whether the saver may see the listing at all (the rule of `findSavedListings`). */
export async function isSaveable(db: Db, userId: string, listingId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.id, listingId), visibleTo(saverOf(userId))));
  return row !== undefined;
}
