import { desc, eq, sql } from 'drizzle-orm';
import type { ListingCreateInput } from '@campus-books/common/listing.schemas';
import type { ListingStatus } from '@campus-books/common/constants';
import type { Db } from '../../db/database';
import { preparedOnce } from '../../db/prepared';
import { listings, type ListingRow } from '../../db/schema';
import { toSchoolFlags } from './listing.serializer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path id can name a listing at all; anything else is simply "not found". */
export function isListingId(id: string): boolean {
  return UUID.test(id);
}

/** The columns a client may set; everything else (owner, status, dates) is the server's. */
function editableColumns(input: ListingCreateInput) {
  return {
    name: input.name,
    courseNumber: input.courseNumber,
    description: input.description,
    address: input.address,
    pickupLocation: input.pickupLocation === '' ? null : input.pickupLocation,
    condition: input.condition,
    regularPrice: input.regularPrice,
    discountPrice: input.discountPrice,
    imageUrls: input.imageUrls,
    schools: toSchoolFlags(input),
    major: input.major,
    type: input.type,
  };
}

export async function insertListing(
  db: Db,
  userId: string,
  input: ListingCreateInput,
): Promise<ListingRow> {
  const [row] = await db
    .insert(listings)
    .values({ ...editableColumns(input), userId })
    .returning();
  return row!;
}

/**
 * The most frequent read (every listing page): built once per database handle as a named prepared
 * statement, so neither drizzle nor PostgreSQL parses or plans it again.
 */
export async function findListingById(db: Db, id: string): Promise<ListingRow | undefined> {
  if (!isListingId(id)) return undefined;
  const statement = preparedOnce(db, 'listing_by_id', (name) =>
    db
      .select()
      .from(listings)
      .where(eq(listings.id, sql.placeholder('id')))
      .prepare(name),
  );
  const [row] = await statement.execute({ id });
  return row;
}

/** Replaces the editable fields; an omitted optional field (type, pickupLocation) is kept. */
export async function updateListingRow(
  db: Db,
  id: string,
  input: ListingCreateInput,
): Promise<ListingRow | undefined> {
  const [row] = await db
    .update(listings)
    .set({ ...editableColumns(input), updatedAt: new Date() })
    .where(eq(listings.id, id))
    .returning();
  return row;
}

export async function setListingStatus(db: Db, id: string, status: ListingStatus): Promise<void> {
  await db
    .update(listings)
    .set({ status, soldAt: status === 'sold' ? new Date() : null, updatedAt: new Date() })
    .where(eq(listings.id, id));
}

export async function deleteListingRow(db: Db, id: string): Promise<void> {
  await db.delete(listings).where(eq(listings.id, id));
}

/** A seller's listings, active and sold, newest first (the order of listings_user_idx). */
export function findListingsQuery(db: Db, userId: string) {
  return db
    .select()
    .from(listings)
    .where(eq(listings.userId, userId))
    .orderBy(sql`${listings.createdAt} DESC NULLS LAST`, desc(listings.id));
}

export async function findListingsByUser(db: Db, userId: string): Promise<ListingRow[]> {
  return findListingsQuery(db, userId);
}
