import { and, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  IMAGE_PATH_PREFIX,
  IMAGE_VARIANTS,
  MAX_UPLOADS_PER_HOUR,
  imageIdFromUrl,
} from '@campus-books/common/images';
import type { Db } from '../../db/database';
import { images, type ImageRow } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { deletePrefix } from '../../lib/storage/storage';

/** Uploads never attached to a listing or profile are deleted after this long. */
export const UNATTACHED_IMAGE_TTL_MS = 24 * 60 * 60 * 1000;

export const NOT_YOUR_IMAGES = 'Images must be your own uploads: upload them again and retry';

/** The hourly upload cap's answer (429). */
/** The hourly upload cap's counter (app.limits): every upload started counts, and every cover imported. */
export const UPLOAD_CAP = { name: 'uploads:user', windowMs: 60 * 60 * 1000 } as const;

export const TOO_MANY_UPLOADS = `You can upload ${MAX_UPLOADS_PER_HOUR} images per hour: please try again later`;

export const imageFolder = (id: string) => `images/${id}/`;

/**
 * Accepts image URLs for a listing or avatar only when each is the caller's own processed upload, and
 * marks them attached so the unattached sweep leaves them alone. URLs in `keep` (what the listing or
 * profile already holds) pass as they are. Call it before saving; it refreshes `attached_at`, which
 * makes a sweep running at the same moment skip these images.
 */
export async function claimImages(
  db: Db,
  userId: string,
  urls: readonly string[],
  keep: readonly string[] = [],
): Promise<void> {
  const kept = new Set(keep);
  const ids = new Set<string>();
  for (const url of urls) {
    if (kept.has(url)) continue;
    const id = imageIdFromUrl(url);
    if (!id) throw badRequest(NOT_YOUR_IMAGES);
    ids.add(id);
  }
  if (ids.size === 0) return;
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
  if (claimed.length !== ids.size) throw badRequest(NOT_YOUR_IMAGES);
}

/**
 * SQL: no listing's imageUrls and no user's avatar point at this image (any variant). The column is
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
    AND NOT EXISTS (SELECT 1 FROM users WHERE users.avatar = ANY(${urls}))`;
}

/**
 * Marks the images matching `where` as `deleting` (one statement, so a concurrent claim either wins
 * first and the row no longer matches, or sees `deleting` and is refused), then deletes each one's
 * files and row. When a file deletion fails the row stays `deleting` and the sweep retries, so
 * nothing points at a half-deleted image. Returns how many were marked and how many deleted.
 */
async function markAndDelete(
  app: FastifyInstance,
  where: SQL | undefined,
): Promise<{ marked: number; deleted: number }> {
  const { db } = app.database;
  const marked = await db
    .update(images)
    .set({ status: 'deleting' })
    .where(where)
    .returning({ id: images.id });
  let deleted = 0;
  for (const { id } of marked) {
    try {
      await deletePrefix(app.storage, imageFolder(id));
      await deletePrefix(app.storage, `tus/${id}/`);
      await db.delete(images).where(eq(images.id, id));
      deleted += 1;
    } catch (error) {
      app.log.warn({ err: error, imageId: id }, 'image deletion failed; a job will retry it');
      await app.jobs.enqueue('delete-image', { id }, { key: `delete-image:${id}` }).catch(() => {}); // the hourly sweep retries it anyway
    }
  }
  return { marked: marked.length, deleted };
}

/** The 'delete-image' job: deletes the files and row of an image left `deleting`; throws to retry. */
export async function retryImageDeletion(app: FastifyInstance, id: string): Promise<void> {
  const [row] = await app.database.db
    .select({ status: images.status })
    .from(images)
    .where(eq(images.id, id));
  if (row?.status !== 'deleting') return;
  await deletePrefix(app.storage, imageFolder(id));
  await deletePrefix(app.storage, `tus/${id}/`);
  await app.database.db.delete(images).where(and(eq(images.id, id), eq(images.status, 'deleting')));
}

/**
 * Deletes one image only while its row is in one of `statuses` (and, when given, owned by
 * `ownerId`), deciding in one statement: of requests racing for the same image exactly one gets
 * true. Its files and row go as with deleteImages (a failed file deletion is left to the sweep).
 */
export async function deleteImageIn(
  app: FastifyInstance,
  id: string,
  statuses: readonly ImageRow['status'][],
  ownerId?: string,
): Promise<boolean> {
  const { marked } = await markAndDelete(
    app,
    and(
      eq(images.id, id),
      inArray(images.status, [...statuses]),
      ownerId === undefined ? undefined : eq(images.ownerId, ownerId),
    ),
  );
  return marked > 0;
}

/** Deletes images (files, then rows) whatever uses them or whatever their status; account deletion. */
export async function deleteImages(app: FastifyInstance, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return (await markAndDelete(app, inArray(images.id, [...ids]))).deleted;
}

/**
 * After a listing or avatar stopped using some images (listing deleted or edited, avatar replaced),
 * deletes those no listing or profile refers to any more. Call it after the change is committed.
 */
export async function releaseImages(
  app: FastifyInstance,
  urls: readonly string[],
): Promise<number> {
  const ids = [...new Set(urls.map(imageIdFromUrl).filter((id): id is string => id !== null))];
  if (ids.length === 0) return 0;
  return (await markAndDelete(app, and(inArray(images.id, ids), notReferenced()))).deleted;
}

/** Ids of every image a user owns; read them before deleting the account, delete them after. */
export async function imageIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ id: images.id }).from(images).where(eq(images.ownerId, userId));
  return rows.map((r) => r.id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Deletes tus state whose upload has no row any more (a cancel that raced a PATCH writing bytes).
 * The row is inserted before tus writes any state, so state without a row is never a new upload.
 */
async function deleteOrphanTusState(app: FastifyInstance): Promise<void> {
  const ids = [
    ...new Set((await app.storage.list('tus/')).map((o) => o.key.split('/')[1] ?? '')),
  ].filter((id) => UUID.test(id));
  if (ids.length === 0) return;
  const rows = await app.database.db
    .select({ id: images.id })
    .from(images)
    .where(inArray(images.id, ids));
  const known = new Set(rows.map((r) => r.id));
  for (const id of ids.filter((i) => !known.has(i))) {
    await deletePrefix(app.storage, `tus/${id}/`).catch((error: unknown) =>
      app.log.warn({ err: error, imageId: id }, 'deleting orphan tus state failed'),
    );
  }
}

/**
 * Deletes images nobody needs: uploads never attached within a day, attached ones no longer used
 * for a day, ones whose owner was deleted, and deletions that failed earlier.
 */
export async function sweepImages(app: FastifyInstance, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNATTACHED_IMAGE_TTL_MS);
  await deleteOrphanTusState(app);
  const { deleted } = await markAndDelete(
    app,
    or(
      eq(images.status, 'deleting'),
      isNull(images.ownerId),
      // `processing` a day later: the server processing it stopped midway.
      and(
        inArray(images.status, ['uploading', 'processing', 'ready']),
        lt(images.createdAt, cutoff),
      ),
      and(eq(images.status, 'attached'), lt(images.attachedAt, cutoff), notReferenced()),
    ),
  );
  return deleted;
}
