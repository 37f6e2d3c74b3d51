import { and, eq, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { IMAGE_PATH_PREFIX, IMAGE_VARIANTS } from '@campus-books/common/images';
import type { Db } from '../../db/database';
import { images, type ImageRow } from '../../db/schema';

/** A set of images for markImagesDeleting, built by the functions below. */
export type ImageSelection = SQL | undefined;

/** The row of a tus upload, inserted before tus writes any state (status 'uploading'). */
export async function insertUploadingImage(
  db: Db,
  image: Pick<typeof images.$inferInsert, 'id' | 'ownerId' | 'bytes'>,
): Promise<void> {
  await db.insert(images).values(image);
}

/** The row of an image stored without tus (a publisher's cover), ready to be claimed. */
export async function insertReadyImage(
  db: Db,
  image: Pick<typeof images.$inferInsert, 'id' | 'ownerId' | 'bytes' | 'width' | 'height'>,
): Promise<void> {
  await db.insert(images).values({ ...image, status: 'ready' });
}

/**
 * Moves an upload from 'uploading' to 'processing'. One conditional statement: of any number of
 * finishing PATCHes, on any app server, exactly one gets true and processes the upload.
 */
export async function claimImageForProcessing(db: Db, id: string): Promise<boolean> {
  const [claimed] = await db
    .update(images)
    .set({ status: 'processing' })
    .where(and(eq(images.id, id), eq(images.status, 'uploading')))
    .returning({ id: images.id });
  return claimed !== undefined;
}

/** Marks a processed image ready, only while it is still 'processing' (not marked for deletion). */
export async function markImageReady(
  db: Db,
  id: string,
  size: { bytes: number; width: number; height: number },
): Promise<boolean> {
  const [ready] = await db
    .update(images)
    .set({ status: 'ready', ...size })
    .where(and(eq(images.id, id), eq(images.status, 'processing')))
    .returning({ id: images.id });
  return ready !== undefined;
}

/**
 * Marks the user's own 'ready' or 'attached' images among `ids` attached (refreshing attached_at)
 * and returns how many matched: fewer than `ids` means one is not theirs or not usable.
 */
export async function attachOwnImages(
  db: Db,
  userId: string,
  ids: readonly string[],
): Promise<number> {
  const claimed = await db
    .update(images)
    .set({ status: 'attached', attachedAt: new Date() })
    .where(
      and(
        inArray(images.id, [...ids]),
        eq(images.ownerId, userId),
        inArray(images.status, ['ready', 'attached']),
      ),
    )
    .returning({ id: images.id });
  return claimed.length;
}

/**
 * Marks the user's own `ready` images among `ids` as a message's photos (`in_message`) and returns
 * the ids it marked. One conditional statement: of two sends racing for one image, exactly one marks
 * it (the other's statement finds it `in_message` and leaves it out), and a photo can never be
 * claimed by a listing or profile afterwards (those take only `ready` or `attached`).
 */
export async function attachImagesToMessage(
  db: Db,
  userId: string,
  ids: readonly string[],
): Promise<string[]> {
  const marked = await db
    .update(images)
    .set({ status: 'in_message', attachedAt: new Date() })
    .where(
      and(inArray(images.id, [...ids]), eq(images.ownerId, userId), eq(images.status, 'ready')),
    )
    .returning({ id: images.id });
  return marked.map((r) => r.id);
}

/** The owner and status of each of `ids` that has a row. */
export async function imageStates(
  db: Db,
  ids: readonly string[],
): Promise<Pick<ImageRow, 'id' | 'ownerId' | 'status'>[]> {
  return db
    .select({ id: images.id, ownerId: images.ownerId, status: images.status })
    .from(images)
    .where(inArray(images.id, [...ids]));
}

/**
 * The image may be served at its public address: its row is in this campus's table and no message
 * carries it (a message's photo only the conversation's photo route serves). An id of another
 * campus's image names no image here, and its files are in that campus's folder of the store
 * (decision 024): two walls.
 */
export async function isPublicImage(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.id, id), ne(images.status, 'in_message')));
  return rows.length > 0;
}

export async function findImage(db: Db, id: string): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row;
}

/** The image when `ownerId` owns it, else undefined. */
export async function findOwnImage(
  db: Db,
  id: string,
  ownerId: string,
): Promise<ImageRow | undefined> {
  const [row] = await db
    .select()
    .from(images)
    .where(and(eq(images.id, id), eq(images.ownerId, ownerId)));
  return row;
}

/** Ids of every image a user owns; read them before deleting the account, delete them after. */
export async function imageIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ id: images.id }).from(images).where(eq(images.ownerId, userId));
  return rows.map((r) => r.id);
}

/** Which of `ids` still have a row. */
export async function existingImageIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(inArray(images.id, [...ids]));
  return new Set(rows.map((r) => r.id));
}

/**
 * Marks the selected images `deleting` in one statement (a concurrent claim either wins first and
 * the row no longer matches, or sees `deleting` and is refused); returns the ids it marked.
 */
export async function markImagesDeleting(db: Db, which: ImageSelection): Promise<string[]> {
  const marked = await db
    .update(images)
    .set({ status: 'deleting' })
    .where(which)
    .returning({ id: images.id });
  return marked.map((r) => r.id);
}

export async function deleteImageRow(db: Db, id: string): Promise<void> {
  await db.delete(images).where(eq(images.id, id));
}

/** Deletes the row only while it is still `deleting`. */
export async function deleteImageRowIfDeleting(db: Db, id: string): Promise<void> {
  await db.delete(images).where(and(eq(images.id, id), eq(images.status, 'deleting')));
}

/** One image, while in one of `statuses` and (when given) owned by `ownerId`. */
export function imageInStatuses(
  id: string,
  statuses: readonly ImageRow['status'][],
  ownerId?: string,
): ImageSelection {
  return and(
    eq(images.id, id),
    inArray(images.status, [...statuses]),
    ownerId === undefined ? undefined : eq(images.ownerId, ownerId),
  );
}

export function imagesWithIds(ids: readonly string[]): ImageSelection {
  return inArray(images.id, [...ids]);
}

/** Those of `ids` that no listing and no avatar refers to. */
export function unreferencedImagesWithIds(ids: readonly string[]): ImageSelection {
  return and(inArray(images.id, [...ids]), notReferenced());
}

/**
 * What the sweep deletes: failed deletions, images whose owner was deleted (unless a listing kept
 * for the moderators shows them), uploads never attached before `cutoff`, and attached ones unused
 * since before `cutoff`.
 */
export function sweepableImages(cutoff: Date): ImageSelection {
  return or(
    eq(images.status, 'deleting'),
    and(isNull(images.ownerId), notReferenced()),
    // `processing` a day later: the server processing it stopped midway.
    and(inArray(images.status, ['uploading', 'processing', 'ready']), lt(images.createdAt, cutoff)),
    and(eq(images.status, 'attached'), lt(images.attachedAt, cutoff), notReferenced()),
  );
}

/**
 * SQL: no listing's or draft's imageUrls and no user's avatar point at this image (any variant). The column is
 * written out qualified: inside the subqueries a bare "id" would mean users.id.
 */
function notReferenced(): SQL {
  // Every URL an image can be referenced by (imageIdFromUrl admits exactly these), so the checks are
  // whole-value matches that the GIN index on listings.image_urls and the index on users.avatar serve.
  const variantUrls = sql.join(
    IMAGE_VARIANTS.map((v) => sql`${IMAGE_PATH_PREFIX} || "images"."id"::text || ${`/${v}.webp`}`),
    sql`, `,
  );
  const urls = sql`ARRAY[${variantUrls}]::text[]`;
  return sql`NOT EXISTS (SELECT 1 FROM listings l WHERE l.image_urls && ${urls})
    AND NOT EXISTS (SELECT 1 FROM listing_drafts d WHERE d.image_urls && ${urls})
    AND NOT EXISTS (SELECT 1 FROM users WHERE users.avatar = ANY(${urls}))`;
}
