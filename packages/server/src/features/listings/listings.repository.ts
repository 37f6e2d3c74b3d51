import { and, eq, gt, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { ListingCreateInput } from '@campus-books/common/listing.schemas';
import type { ListingStatus } from '@campus-books/common/constants';
import type { Db } from '../../db/database';
import { preparedOnce } from '../../db/prepared';
import { rowsOf } from '../../db/rows';
import { listings, type ListingRow } from '../../db/schema';
import { holdOrder } from '../../deal/deal';
import { isHoldableSql } from '../../deal/deal.sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path id can name a listing at all; anything else is simply "not found". */
export function isListingId(id: string): boolean {
  return UUID.test(id);
}

/**
 * Each field of the create and update body under its column's name (`publisherCover` is stored as
 * `publisherCoverUrl`): a field added to the schema is a compile error here until it is stored.
 */
type EditableColumns = Record<
  Exclude<keyof ListingCreateInput, 'publisherCover'> | 'publisherCoverUrl',
  unknown
> &
  Partial<typeof listings.$inferInsert>;

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
    schools: input.schools,
    major: input.major,
    type: input.type,
    // Book and course fields: undefined (omitted) keeps the stored value on an update.
    isbn: input.isbn,
    authors: input.authors,
    edition: input.edition,
    subject: input.subject,
    publisherCoverUrl: input.publisherCover,
  } satisfies EditableColumns;
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
  /** Sold: the buyer the seller named (features/conversations), or null for "someone else". */
  soldTo: string | null = null,
): Promise<boolean> {
  const changed = await db
    .update(listings)
    .set({
      status,
      soldAt: status === 'sold' ? new Date() : null,
      soldTo: status === 'sold' ? soldTo : null,
      updatedAt: new Date(),
      ...(freshness ? { ...freshness, reminded7dAt: null, reminded1dAt: null } : {}),
    })
    .where(and(eq(listings.id, id), inArray(listings.status, SELLER_STATUSES)))
    .returning({ id: listings.id });
  return changed.length > 0;
}

/** The ids of a seller's listings not already kept for the moderators, in id order (lock order). */
export async function idsOfListingsBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.userId, userId), isNull(listings.sellerDeletedAt)))
    .orderBy(listings.id);
  return rows.map((r) => r.id);
}

/** Deletes a seller's listings, except those kept for the moderators (`sellerDeletedAt`). */
export async function deleteListingsOfUser(db: Db, userId: string): Promise<void> {
  await db
    .delete(listings)
    .where(and(eq(listings.userId, userId), isNull(listings.sellerDeletedAt)));
}

/**
 * Deletes a listing; false when it was already gone (a copy of the same request got there first).
 * `keptForModerators`: the row a seller deleted while reported, which only the moderators delete.
 */
export async function deleteListingRow(
  db: Db,
  id: string,
  keptForModerators = false,
): Promise<string[] | undefined> {
  const [deleted] = await db
    .delete(listings)
    .where(
      and(
        eq(listings.id, id),
        keptForModerators ? isNotNull(listings.sellerDeletedAt) : isNull(listings.sellerDeletedAt),
      ),
    )
    .returning({ imageUrls: listings.imageUrls });
  return deleted?.imageUrls;
}

/**
 * Puts every listing of an accepted offer's set on hold for `buyerId` until `until`, as the deal
 * states (deal.ts: `isHoldable`, `holdOrder`): the rows are locked in id order first, then one
 * conditional update holds those still holdable. Returns the ids it held; the caller's transaction
 * rolls back unless that is all of them, so a set is held whole or not at all, and of two accepts
 * racing for one book (two offers, two devices, two servers) exactly one holds it.
 */
export async function holdListings(
  db: Db,
  ids: readonly string[],
  hold: { buyerId: string; offerId: string; until: Date; now: Date },
): Promise<string[]> {
  const list = sql.join(
    holdOrder(ids).map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await db.execute(sql`SELECT id FROM listings WHERE id IN (${list}) ORDER BY id FOR UPDATE`);
  const held = await rowsOf<{ id: string }>(
    db,
    sql`UPDATE listings
        SET held_for = ${hold.buyerId}, held_until = ${hold.until.toISOString()}::timestamptz,
            hold_offer_id = ${hold.offerId}
        WHERE id IN (${list}) AND ${isHoldableSql('listings', hold.now)}
        RETURNING id`,
  );
  return held.map((row) => row.id);
}

/**
 * Whether any listing matches `where`. The recurring jobs ask before their claiming UPDATE: an
 * UPDATE that changes no row still moves the catalogue's version (its trigger is per statement,
 * migration 0008), which empties every cached search and page of the campus, on every app server,
 * each time a job finds nothing to do. The UPDATE stays the claim; a row due meanwhile waits for
 * the next run.
 */
async function anyListing(db: Db, where: SQL | undefined): Promise<boolean> {
  const [row] = await db.select({ id: listings.id }).from(listings).where(where).limit(1);
  return row !== undefined;
}

/**
 * Ends a listing's hold and the hold of every book of its set (the same accepted offer: the seller
 * released it); the listings it released, [] if the listing was not held. The condition is on each
 * updated row itself, which PostgreSQL checks again after a concurrent release: one release wins.
 */
export async function releaseListingHold(db: Db, id: string): Promise<string[]> {
  const released = await rowsOf<{ id: string }>(
    db,
    sql`UPDATE listings SET held_for = NULL, held_until = NULL, hold_offer_id = NULL
        WHERE held_until IS NOT NULL
          AND (id = ${id} OR hold_offer_id = (SELECT hold_offer_id FROM listings WHERE id = ${id}))
        RETURNING id`,
  );
  return released.map((row) => row.id);
}

/**
 * Ends every hold whose time is over at `now` (the hold job), with the rest of each one's set (the
 * books of a set share their time, so this only matters to a set whose times were set apart); the
 * listings it ended.
 */
export async function endDueHolds(db: Db, now: Date): Promise<string[]> {
  if (!(await anyListing(db, lte(listings.heldUntil, now)))) return [];
  const ended = await rowsOf<{ id: string }>(
    db,
    sql`UPDATE listings SET held_for = NULL, held_until = NULL, hold_offer_id = NULL
        WHERE held_until IS NOT NULL
          AND (held_until <= ${now.toISOString()}::timestamptz
               OR hold_offer_id IN (SELECT hold_offer_id FROM listings
                                    WHERE held_until <= ${now.toISOString()}::timestamptz))
        RETURNING id`,
  );
  return ended.map((row) => row.id);
}

/** What the expiry job mails from, for each listing it claims. */
const DUE_COLUMNS = {
  id: listings.id,
  name: listings.name,
  expiresAt: listings.expiresAt,
  confirmedAt: listings.confirmedAt,
  userId: listings.userId,
};
export type DueListing = {
  id: string;
  name: string;
  expiresAt: Date;
  confirmedAt: Date;
  /** Null once its seller's account was deleted (the listing kept under report). */
  userId: string | null;
};

/**
 * Active listings whose time is over become `expired`, in one statement that is also their claim: of
 * two servers (or two runs) only the one whose UPDATE changed a row gets it back.
 */
export async function expireDueListingRows(db: Db, now: Date): Promise<DueListing[]> {
  const due = and(eq(listings.status, 'active'), lte(listings.expiresAt, now));
  if (!(await anyListing(db, due))) return [];
  return db
    .update(listings)
    .set({ status: 'expired', updatedAt: now })
    .where(due)
    .returning(DUE_COLUMNS);
}

/**
 * Claims the active listings expiring after `now` and by `horizon` not yet reminded `daysBefore`,
 * marking them reminded in the same statement, so each reminder is claimed once. The one-day
 * reminder stands for the week's one when both are due.
 */
export async function claimListingReminders(
  db: Db,
  now: Date,
  horizon: Date,
  daysBefore: 7 | 1,
): Promise<DueListing[]> {
  const due = and(
    eq(listings.status, 'active'),
    gt(listings.expiresAt, now),
    lte(listings.expiresAt, horizon),
    daysBefore === 7 ? isNull(listings.reminded7dAt) : isNull(listings.reminded1dAt),
  );
  const set =
    daysBefore === 7
      ? { reminded7dAt: now }
      : { reminded1dAt: now, reminded7dAt: sql`coalesce(${listings.reminded7dAt}, ${now})` };
  if (!(await anyListing(db, due))) return [];
  return db.update(listings).set(set).where(due).returning(DUE_COLUMNS);
}

/** The listing as a one-click link saw it: one of `statuses`, confirmed at `confirmedAt`. */
const unchangedSince = (id: string, statuses: ListingStatus[], confirmedAt: Date) =>
  and(
    eq(listings.id, id),
    inArray(listings.status, statuses),
    sql`date_trunc('milliseconds', ${listings.confirmedAt}) = ${confirmedAt.toISOString()}::timestamptz`,
  );

/** Deletes the listing if it is still as a link saw it; its photos, or undefined when it was not. */
export async function deleteListingIfUnchanged(
  db: Db,
  id: string,
  statuses: ListingStatus[],
  confirmedAt: Date,
): Promise<{ imageUrls: string[] } | undefined> {
  const [removed] = await db
    .delete(listings)
    .where(unchangedSince(id, statuses, confirmedAt))
    .returning({ imageUrls: listings.imageUrls });
  return removed;
}

/** Sets `set` on the listing if it is still as a link saw it: of racing uses, one acts. */
export async function updateListingIfUnchanged(
  db: Db,
  id: string,
  status: ListingStatus,
  confirmedAt: Date,
  set: Partial<typeof listings.$inferInsert>,
): Promise<ListingRow | undefined> {
  const [row] = await db
    .update(listings)
    .set(set)
    .where(unchangedSince(id, [status], confirmedAt))
    .returning();
  return row;
}
