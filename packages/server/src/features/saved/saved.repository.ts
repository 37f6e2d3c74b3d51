import type { Listing } from '@campus-books/common/listing.schemas';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { listings, savedListings } from '../../db/schema';
import { toListing } from '../listings/listing.serializer';

/** A student's saved listings, the most recently saved first (GET /api/saved/get). */
export async function findSavedListings(db: Db, userId: string): Promise<Listing[]> {
  const rows = await db
    .select({ listing: listings })
    .from(savedListings)
    .innerJoin(listings, eq(listings.id, savedListings.listingId))
    .where(eq(savedListings.userId, userId))
    .orderBy(desc(savedListings.createdAt), desc(listings.id));
  return rows.map((r) => toListing(r.listing));
}
