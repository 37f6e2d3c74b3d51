import type { FastifyBaseLogger } from 'fastify';
import {
  IMAGE_VARIANTS,
  MAX_UPLOADS_PER_HOUR,
  imageIdFromUrl,
  imageVariantFallbacks,
  type ImageVariant,
} from '@campus-books/common/images';
import { MESSAGE_PHOTO_MESSAGES as P } from '@campus-books/common/message-photos';
import type { Db } from '../../db/database';
import type { ImageRow } from '../../db/schema';
import type { Jobs } from '../../jobs/jobs';
import { badRequest, conflict, forbidden } from '../../lib/errors';
import { deletePrefix, type Storage } from '../../lib/storage/storage';
import {
  attachImagesToMessage,
  attachOwnImages,
  deleteImageRow,
  deleteImageRowIfDeleting,
  existingImageIds,
  findImage,
  imageInStatuses,
  imageStates,
  imagesWithIds,
  markImagesDeleting,
  sweepableImages,
  unreferencedImagesWithIds,
  type ImageSelection,
} from './images.repository';

/** Uploads never attached to a listing or profile are deleted after this long. */
export const UNATTACHED_IMAGE_TTL_MS = 24 * 60 * 60 * 1000;

export const NOT_YOUR_IMAGES = 'Images must be your own uploads: upload them again and retry';

/** The hourly upload cap's answer (429). */
/** The hourly upload cap's counter (app.limits): every upload started counts, and every cover imported. */
export const UPLOAD_CAP = { name: 'uploads:user', windowMs: 60 * 60 * 1000 } as const;

export const TOO_MANY_UPLOADS = `You can upload ${MAX_UPLOADS_PER_HOUR} images per hour: please try again later`;

export const imageFolder = (id: string) => `images/${id}/`;

/**
 * What deleting images uses (app.images, built once by images.jobs.ts): the rows' database, the
 * files' store, the log, and the jobs that retry a failed deletion.
 */
export interface ImageDeps {
  db: Db;
  storage: Storage;
  log: Pick<FastifyBaseLogger, 'warn'>;
  jobs: Pick<Jobs, 'enqueue'>;
}

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
  if ((await attachOwnImages(db, userId, [...ids])) !== ids.size) throw badRequest(NOT_YOUR_IMAGES);
}

/**
 * Attaches a message's photos: each must be the sender's own processed upload, attached to nothing
 * (no listing, profile or other message). Call it inside the transaction that writes the message, so
 * a refusal (which names the first photo refused and why) leaves neither photos nor message.
 */
export async function claimMessagePhotos(
  db: Db,
  userId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const marked = new Set(await attachImagesToMessage(db, userId, ids));
  if (marked.size === ids.length) return;
  const states = new Map((await imageStates(db, ids)).map((row) => [row.id, row]));
  for (const id of ids.filter((i) => !marked.has(i))) {
    const row = states.get(id);
    if (!row) throw badRequest(P.unknown(id));
    if (row.ownerId !== userId) throw forbidden(P.notYours(id));
    if (row.status === 'uploading' || row.status === 'processing') {
      throw conflict(P.notProcessed(id));
    }
    throw conflict(P.alreadyAttached(id));
  }
}

const variantFile = (variant: ImageVariant) => `${variant}.webp`;

/** The stored variants' file names (`320.webp` … `full.webp`). */
export const IMAGE_FILE_NAMES = IMAGE_VARIANTS.map(variantFile) as [string, ...string[]];

const variantOf = (file: string): ImageVariant => {
  const name = file.slice(0, -'.webp'.length);
  return name === 'full' ? 'full' : (Number(name) as ImageVariant);
};

/**
 * The bytes of one stored variant (`file` one of IMAGE_FILE_NAMES). An image stored before a width
 * was added lacks that file: it gets the next larger variant it has (`exact` false), never nothing.
 */
export async function readImageFile(
  storage: Storage,
  id: string,
  file: string,
): Promise<{ bytes: Buffer; exact: boolean } | null> {
  const folder = imageFolder(id);
  const bytes = await storage.get(`${folder}${file}`);
  if (bytes) return { bytes, exact: true };
  // One listing of the image's folder rather than a read per candidate (S3 requests cost).
  const stored = new Set((await storage.list(folder)).map((o) => o.key));
  const standIn = imageVariantFallbacks(variantOf(file))
    .map((variant) => `${folder}${variantFile(variant)}`)
    .find((key) => stored.has(key));
  const found = standIn ? await storage.get(standIn) : null;
  return found ? { bytes: found, exact: false } : null;
}

/**
 * Marks the selected images as `deleting` (one statement, so a concurrent claim either wins
 * first and the row no longer matches, or sees `deleting` and is refused), then deletes each one's
 * files and row. When a file deletion fails the row stays `deleting` and the sweep retries, so
 * nothing points at a half-deleted image. Returns how many were marked and how many deleted.
 */
async function markAndDelete(
  { db, storage, log, jobs }: ImageDeps,
  which: ImageSelection,
): Promise<{ marked: number; deleted: number }> {
  const marked = await markImagesDeleting(db, which);
  let deleted = 0;
  for (const id of marked) {
    try {
      await deletePrefix(storage, imageFolder(id));
      await deletePrefix(storage, `tus/${id}/`);
      await deleteImageRow(db, id);
      deleted += 1;
    } catch (error) {
      log.warn({ err: error, imageId: id }, 'image deletion failed; a job will retry it');
      await jobs.enqueue('delete-image', { id }, { key: `delete-image:${id}` }).catch(() => {}); // the hourly sweep retries it anyway
    }
  }
  return { marked: marked.length, deleted };
}

/** The 'delete-image' job: deletes the files and row of an image left `deleting`; throws to retry. */
export async function retryImageDeletion({ db, storage }: ImageDeps, id: string): Promise<void> {
  const row = await findImage(db, id);
  if (row?.status !== 'deleting') return;
  await deletePrefix(storage, imageFolder(id));
  await deletePrefix(storage, `tus/${id}/`);
  await deleteImageRowIfDeleting(db, id);
}

/**
 * Deletes one image only while its row is in one of `statuses` (and, when given, owned by
 * `ownerId`), deciding in one statement: of requests racing for the same image exactly one gets
 * true. Its files and row go as with deleteImages (a failed file deletion is left to the sweep).
 */
export async function deleteImageIn(
  images: ImageDeps,
  id: string,
  statuses: readonly ImageRow['status'][],
  ownerId?: string,
): Promise<boolean> {
  const { marked } = await markAndDelete(images, imageInStatuses(id, statuses, ownerId));
  return marked > 0;
}

/** Deletes images (files, then rows) whatever uses them or whatever their status; account deletion. */
export async function deleteImages(images: ImageDeps, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return (await markAndDelete(images, imagesWithIds(ids))).deleted;
}

/** Deletes those of `ids` no listing, draft or profile refers to (a deleted account's images). */
export async function releaseImageIds(images: ImageDeps, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return (await markAndDelete(images, unreferencedImagesWithIds(ids))).deleted;
}

/**
 * After a listing or avatar stopped using some images (listing deleted or edited, avatar replaced),
 * deletes those no listing or profile refers to any more. Call it after the change is committed.
 */
export async function releaseImages(images: ImageDeps, urls: readonly string[]): Promise<number> {
  const ids = [...new Set(urls.map(imageIdFromUrl).filter((id): id is string => id !== null))];
  if (ids.length === 0) return 0;
  return (await markAndDelete(images, unreferencedImagesWithIds(ids))).deleted;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Deletes tus state whose upload has no row any more (a cancel that raced a PATCH writing bytes).
 * The row is inserted before tus writes any state, so state without a row is never a new upload.
 * Several campuses: the store and the database are the campus's at work, so each campus's sweep
 * looks at its own folder and its own rows.
 */
async function deleteOrphanTusState({ db, storage, log }: ImageDeps): Promise<void> {
  const ids = [
    ...new Set((await storage.list('tus/')).map((o) => o.key.split('/')[1] ?? '')),
  ].filter((id) => UUID.test(id));
  if (ids.length === 0) return;
  const known = await existingImageIds(db, ids);
  for (const id of ids.filter((i) => !known.has(i))) {
    await deletePrefix(storage, `tus/${id}/`).catch((error: unknown) =>
      log.warn({ err: error, imageId: id }, 'deleting orphan tus state failed'),
    );
  }
}

/**
 * Deletes images nobody needs: uploads never attached within a day, attached ones no longer used
 * for a day, ones whose owner was deleted, and deletions that failed earlier; and the upload
 * state (`tus/`) of images no row names.
 */
export async function sweepImages(images: ImageDeps, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNATTACHED_IMAGE_TTL_MS);
  await deleteOrphanTusState(images);
  const { deleted } = await markAndDelete(images, sweepableImages(cutoff));
  return deleted;
}
