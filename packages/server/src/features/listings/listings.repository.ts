import { and, desc, eq, inArray, sql } from 'drizzle-orm';
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
    // Book and course fields: undefined (omitted) keeps the stored value on an update.
    isbn: input.isbn,
    authors: input.authors,
    edition: input.edition,
    subject: input.subject,
    publisherCoverUrl: input.publisherCover,
  };
}

/** When a new or relisted listing expires and was confirmed (listing-expiry.ts). */
export interface Freshness {
  expiresAt: Date;
  confirmedAt: Date;
}

export async function insertListing(
  db: Db,
  userId: string,
  input: ListingCreateInput,
  freshness?: Freshness,
): Promise<ListingRow> {
  const [row] = await db
    .insert(listings)
    .values({ ...editableColumns(input), ...freshness, userId })
    .returning();
  return row!;
}

/**
 * Inserts the listing unless this owner already created one with this Idempotency-Key; either way
 * answers the key's listing. The unique index on (user_id, idempotency_key) decides, so copies of
 * one request arriving at once (on any number of app servers) make exactly one row: a copy that
 * loses waits for the winner's commit, inserts nothing, then reads the winner's row.
 */
export async function insertListingOnce(
  db: Db,
  userId: string,
  input: ListingCreateInput,
  idempotencyKey: string,
  freshness?: Freshness,
): Promise<ListingRow> {
  // A second round only if the key's listing was deleted between the conflict and the read.
  for (let round = 0; round < 2; round += 1) {
    const [inserted] = await db
      .insert(listings)
      .values({ ...editableColumns(input), ...freshness, userId, idempotencyKey })
      .onConflictDoNothing({ target: [listings.userId, listings.idempotencyKey] })
      .returning();
    if (inserted) return inserted;
    const existing = await findListingByIdempotencyKey(db, userId, idempotencyKey);
    if (existing) return existing;
  }
  throw new Error('idempotent listing insert found neither a new nor an existing row');
}

/** The listing a user's Idempotency-Key already made, if any. */
export async function findListingByIdempotencyKey(
  db: Db,
  userId: string,
  idempotencyKey: string,
): Promise<ListingRow | undefined> {
  const [row] = await db
    .select()
    .from(listings)
    .where(and(eq(listings.userId, userId), eq(listings.idempotencyKey, idempotencyKey)));
  return row;
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

/**
 * Replaces the editable fields (an omitted optional field — type, pickupLocation, isbn… — is kept) of
 * a listing that is for sale; undefined when there is none (deleted, or sold meanwhile).
 */
export async function updateListingRow(
  db: Db,
  id: string,
  input: ListingCreateInput,
): Promise<ListingRow | undefined> {
  const [row] = await db
    .update(listings)
    .set({ ...editableColumns(input), updatedAt: new Date() })
    .where(and(eq(listings.id, id), eq(listings.status, 'active')))
    .returning();
  return row;
}

/** Statuses the seller may move between; hidden and removed ones are the moderators'. */
export const SELLER_STATUSES: ListingStatus[] = ['active', 'sold', 'expired'];

/**
 * The seller's status change (sold, relist); false when the listing is not the seller's to change
 * any more (hidden or removed meanwhile). A relist is a fresh confirmation (`freshness`).
 */
export async function setListingStatus(
  db: Db,
  id: string,
  status: ListingStatus,
  freshness?: Freshness,
): Promise<boolean> {
  const changed = await db
    .update(listings)
    .set({
      status,
      soldAt: status === 'sold' ? new Date() : null,
      updatedAt: new Date(),
      ...(freshness ? { ...freshness, reminded7dAt: null, reminded1dAt: null } : {}),
    })
    .where(and(eq(listings.id, id), inArray(listings.status, SELLER_STATUSES)))
    .returning({ id: listings.id });
  return changed.length > 0;
}

/** Deletes a listing; false when it was already gone (a copy of the same request got there first). */
export async function deleteListingRow(db: Db, id: string): Promise<boolean> {
  const deleted = await db
    .delete(listings)
    .where(eq(listings.id, id))
    .returning({ id: listings.id });
  return deleted.length > 0;
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
