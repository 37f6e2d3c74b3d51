import { and, asc, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DraftFields } from '@campus-books/common/shelf.schemas';
import type { Db } from '../../db/database';
import { listingDrafts, type ListingDraftRow } from '../../db/shelf.schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path id can name a draft at all; anything else is simply "not found". */
export const isDraftId = (id: string) => UUID.test(id);

export function findOwnDrafts(db: Db, userId: string): Promise<ListingDraftRow[]> {
  return db
    .select()
    .from(listingDrafts)
    .where(eq(listingDrafts.userId, userId))
    .orderBy(asc(listingDrafts.createdAt), asc(listingDrafts.id));
}

export async function findOwnDraft(
  db: Db,
  userId: string,
  id: string,
): Promise<ListingDraftRow | undefined> {
  if (!isDraftId(id)) return undefined;
  const [row] = await db
    .select()
    .from(listingDrafts)
    .where(and(eq(listingDrafts.id, id), eq(listingDrafts.userId, userId)));
  return row;
}

export async function countOwnDrafts(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(listingDrafts)
    .where(eq(listingDrafts.userId, userId));
  return row?.n ?? 0;
}

/**
 * Creates the draft or replaces its values, in one statement: copies of one save arriving at once
 * write one row. Undefined when the id is another student's draft (which stays untouched).
 */
export async function upsertDraft(
  db: Db,
  userId: string,
  id: string,
  fields: DraftFields,
  imageUrls: string[],
): Promise<ListingDraftRow | undefined> {
  const [row] = await db
    .insert(listingDrafts)
    .values({ id, userId, fields, imageUrls })
    .onConflictDoUpdate({
      target: listingDrafts.id,
      set: { fields, imageUrls, updatedAt: sql`now()` },
      setWhere: eq(listingDrafts.userId, userId),
    })
    .returning();
  return row;
}

export async function deleteOwnDraft(
  db: Db,
  userId: string,
  id: string,
): Promise<ListingDraftRow | undefined> {
  if (!isDraftId(id)) return undefined;
  const [row] = await db
    .delete(listingDrafts)
    .where(and(eq(listingDrafts.id, id), eq(listingDrafts.userId, userId)))
    .returning();
  return row;
}

/**
 * Takes the drafts no other publish is working on (or whose publish stopped before `staleBefore`),
 * in one statement: of requests racing for one draft exactly one gets it.
 */
export function claimDraftsToPublish(
  db: Db,
  userId: string,
  ids: string[],
  now: Date,
  staleBefore: Date,
): Promise<ListingDraftRow[]> {
  return db
    .update(listingDrafts)
    .set({ publishingAt: now })
    .where(
      and(
        eq(listingDrafts.userId, userId),
        inArray(listingDrafts.id, ids),
        or(isNull(listingDrafts.publishingAt), lt(listingDrafts.publishingAt, staleBefore)),
      ),
    )
    .returning();
}

/** A draft that could not be published is the seller's again. */
export async function releaseDraft(db: Db, id: string): Promise<void> {
  await db.update(listingDrafts).set({ publishingAt: null }).where(eq(listingDrafts.id, id));
}

export async function deleteDraft(db: Db, id: string): Promise<void> {
  await db.delete(listingDrafts).where(eq(listingDrafts.id, id));
}
