import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Server } from '@tus/server';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { MAX_UPLOADS_PER_HOUR, UPLOAD_ENDPOINT, imageUrl } from '@campus-books/common/images';
import { MESSAGES } from '@campus-books/common/messages';
import { images } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { imageFolder, countUploadsSince } from './images.service';
import { processImage } from './image-processing';
import type { StorageDataStore } from './tus-storage-store';

export const TOO_MANY_UPLOADS = `You can upload ${MAX_UPLOADS_PER_HOUR} images per hour: please try again later`;

/** The signed-in user of each request handed to tus (set by the route after its checks). */
export const uploaderOf = new WeakMap<IncomingMessage, string>();

type TusRequest = { runtime?: { node?: { req: IncomingMessage } } };

function uploaderOfRequest(req: unknown): string {
  const raw = (req as TusRequest).runtime?.node?.req;
  const userId = raw && uploaderOf.get(raw);
  if (!userId) throw tusError(401, 'Please sign in to continue');
  return userId;
}

/** tus hooks throw `{status_code, body}`; our bodies use the API's error shape. */
function tusError(statusCode: number, message: string) {
  return {
    status_code: statusCode,
    body: JSON.stringify({ success: false, statusCode, message }),
  };
}

/**
 * The tus server: creation checks the hourly cap and records the upload as the caller's; the last
 * PATCH processes the bytes into WebP variants, or refuses them and leaves nothing behind.
 */
export function createTusServer(app: FastifyInstance, store: StorageDataStore): Server {
  const { db } = app.database;

  async function discard(id: string) {
    await store.discard(id);
    await db.delete(images).where(eq(images.id, id));
  }

  return new Server({
    path: UPLOAD_ENDPOINT,
    datastore: store,
    maxSize: MAX_IMAGE_BYTES,
    relativeLocation: true,
    respectForwardedHeaders: app.config.trustProxy,
    allowedOrigins: [new URL(app.config.publicUrl).origin],
    // Names come from the server only; a user's file name never reaches a storage key.
    namingFunction: () => randomUUID(),

    async onUploadCreate(req, upload) {
      const ownerId = uploaderOfRequest(req);
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
      if ((await countUploadsSince(db, ownerId, hourAgo)) >= MAX_UPLOADS_PER_HOUR) {
        throw tusError(429, TOO_MANY_UPLOADS);
      }
      await db.insert(images).values({ id: upload.id, ownerId, bytes: upload.size ?? 0 });
      return {};
    },

    async onUploadFinish(_req, upload) {
      const bytes = await store.readAll(upload.id);
      let processed;
      try {
        processed = await processImage(bytes);
      } catch (error) {
        await discard(upload.id).catch((cause: unknown) =>
          app.log.warn({ err: cause, imageId: upload.id }, 'discarding a refused upload failed'),
        );
        if (error instanceof AppError) throw tusError(error.statusCode, error.message);
        throw error;
      }
      try {
        for (const variant of processed.variants) {
          const key = `${imageFolder(upload.id)}${variant.name}.webp`;
          await app.storage.put(key, variant.data, 'image/webp');
        }
        await db
          .update(images)
          .set({
            status: 'ready',
            bytes: bytes.length,
            width: processed.width,
            height: processed.height,
          })
          .where(eq(images.id, upload.id));
        await store.discard(upload.id);
      } catch (error) {
        app.log.error({ err: error, imageId: upload.id }, 'storing an image failed');
        for (const variant of processed.variants) {
          await app.storage.delete(`${imageFolder(upload.id)}${variant.name}.webp`).catch(() => {});
        }
        await discard(upload.id).catch(() => {});
        throw tusError(503, 'The image could not be stored, please try again');
      }
      return {
        status_code: 200,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          success: true,
          _id: upload.id,
          url: imageUrl(upload.id),
          width: processed.width,
          height: processed.height,
        }),
      };
    },

    onResponseError(_req, error) {
      if ('status_code' in error) {
        if (error.body.startsWith('{')) return error;
        if (error.status_code === 413) return tusError(413, MESSAGES.imageTooLarge);
        // tus answers 501 to an extension the store lacks (Upload-Defer-Length): the client's mistake.
        if (error.status_code === 501)
          return tusError(400, 'Send Upload-Length: uploads of unknown length are not supported');
        if (error.status_code >= 500)
          return tusError(error.status_code, 'The upload failed, please try again');
        return tusError(error.status_code, error.body.trim());
      }
      app.log.error({ err: error }, 'upload failed');
      return tusError(500, 'The upload failed, please try again');
    },
  });
}
