import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { MAX_UPLOADS_PER_HOUR, imageUrl } from '@campus-books/common/images';
import { urlHostKey } from '@campus-books/common/host-name';
import { MESSAGES } from '@campus-books/common/messages';
import { AppError, notFound } from '../../lib/errors';
import { processImage } from '../images/image-processing';
import { insertReadyImage } from '../images/images.repository';
import { TOO_MANY_UPLOADS, UPLOAD_CAP, imageFolder } from '../images/images.service';
import { LOOKUP_TIMEOUT_MS } from './book-lookup';
import type { BookLookup } from './books.service';

export const NO_PUBLISHER_COVER =
  "We have no publisher's cover for this book: add a photo of your copy";
export const COVER_UNAVAILABLE =
  "We couldn't fetch the publisher's cover right now: add a photo of your copy";
const MAX_REDIRECTS = 3;

/**
 * GETs the cover, following redirects only on the allowed hosts (`coverHosts`: each host in its one
 * spelling, as `urlHostKey` writes the target's), reading at most MAX_IMAGE_BYTES.
 */
async function fetchCover(url: string, allowedHosts: Set<string>): Promise<Buffer> {
  const signal = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  let target = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const host = urlHostKey(target);
    if (host === null || !allowedHosts.has(host) || !/^https?:$/.test(target.protocol)) {
      throw new AppError(422, NO_PUBLISHER_COVER);
    }
    let response: Response;
    try {
      response = await fetch(target, { signal, redirect: 'manual' });
    } catch {
      throw new AppError(503, COVER_UNAVAILABLE);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      target = new URL(location, target);
      continue;
    }
    if (response.status === 404) throw new AppError(404, NO_PUBLISHER_COVER);
    if (!response.ok || !response.body) throw new AppError(503, COVER_UNAVAILABLE);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_IMAGE_BYTES) {
      await response.body.cancel();
      throw new AppError(413, MESSAGES.imageTooLarge);
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of response.body) {
        bytes += chunk.length;
        if (bytes > MAX_IMAGE_BYTES) throw new AppError(413, MESSAGES.imageTooLarge);
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(503, COVER_UNAVAILABLE);
    }
    return Buffer.concat(chunks);
  }
  throw new AppError(422, NO_PUBLISHER_COVER);
}

/**
 * Imports a book's publisher's cover as one of the seller's images: fetched only from the hosts of
 * the configured providers' covers, then through the upload pipeline's checks (size, real type,
 * pixels) into a `ready` image of theirs, as if uploaded. The listing marks it publisherCover.
 */
export async function importPublisherCover(
  app: FastifyInstance,
  lookup: BookLookup,
  userId: string,
  isbn: string,
): Promise<{ url: string; width: number; height: number }> {
  const result = await lookup.lookup(isbn);
  if (result.kind !== 'found' || !result.book.coverUrl) throw notFound(NO_PUBLISHER_COVER);
  const { db } = app.database;
  // A cover counts against the same hourly cap as an upload.
  const slot = await app.limits.take(
    UPLOAD_CAP.name,
    userId,
    MAX_UPLOADS_PER_HOUR,
    UPLOAD_CAP.windowMs,
  );
  if (!slot.allowed) throw new AppError(429, TOO_MANY_UPLOADS);
  const allowedHosts = new Set(lookup.providers.flatMap((p) => p.coverHosts));
  const bytes = await fetchCover(result.book.coverUrl, allowedHosts);
  const processed = await processImage(bytes);
  const id = randomUUID();
  try {
    for (const variant of processed.variants) {
      await app.storage.put(`${imageFolder(id)}${variant.name}.webp`, variant.data, 'image/webp');
    }
    await insertReadyImage(db, {
      id,
      ownerId: userId,
      bytes: bytes.length,
      width: processed.width,
      height: processed.height,
    });
  } catch (error) {
    app.log.error({ err: error, imageId: id }, "storing a publisher's cover failed");
    for (const variant of processed.variants) {
      await app.storage.delete(`${imageFolder(id)}${variant.name}.webp`).catch(() => {});
    }
    throw new AppError(503, 'The image could not be stored, please try again');
  }
  return { url: imageUrl(id), width: processed.width, height: processed.height };
}
