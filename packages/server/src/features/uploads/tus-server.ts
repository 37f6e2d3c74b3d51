import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Server, type Locker } from '@tus/server';
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { UPLOAD_ENDPOINT, imageUrl } from '@campus-books/common/images';
import { MESSAGES } from '@campus-books/common/messages';
import { AppError, errorBody } from '../../lib/errors';
import { deletePrefix } from '../../lib/storage/storage';
import {
  claimImageForProcessing,
  insertUploadingImage,
  markImageReady,
} from '../images/images.repository';
import { deleteImageIn, imageFolder } from '../images/images.service';
import { processImage } from '../images/image-processing';
import type { StorageDataStore } from './tus-storage-store';

export { TOO_MANY_UPLOADS } from '../images/images.service';

export const UPLOAD_ALREADY_FINISHED = 'This upload is already finished or cancelled';

/** The signed-in user of each request handed to tus (set by the route after its checks). */
export const uploaderOf = new WeakMap<IncomingMessage, string>();

/**
 * The upload id of each request handed to tus: the route's parsed `:id`, the one its ownership
 * check used. tus never reads an id from the URL itself (it would take the last `/…` of the whole
 * URL, query string included, and act on another upload than the one checked).
 */
export const uploadIdOf = new WeakMap<IncomingMessage, string>();

type TusRequest = { runtime?: { node?: { req: IncomingMessage } } };

const nodeRequest = (req: unknown) => (req as TusRequest).runtime?.node?.req;

function uploaderOfRequest(req: unknown): string {
  const raw = nodeRequest(req);
  const userId = raw && uploaderOf.get(raw);
  if (!userId) throw tusError(401, 'Please sign in to continue');
  return userId;
}

/** tus hooks throw `{status_code, body}`; our bodies use the API's error shape. */
function tusError(statusCode: number, message: string) {
  return {
    status_code: statusCode,
    body: JSON.stringify(errorBody(statusCode, message)),
  };
}

/**
 * The tus server: creation records the upload as the caller's (the route counted it against the
 * hourly cap); the last PATCH processes the bytes into WebP variants, or refuses them and leaves
 * nothing behind.
 */
export function createTusServer(
  app: FastifyInstance,
  store: StorageDataStore,
  locker?: Locker,
): Server {
  const { db } = app.database;

  async function deletePrefixQuietly(id: string) {
    await deletePrefix(app.storage, imageFolder(id)).catch(() => {});
    await store.discard(id).catch(() => {});
  }

  /** Deletes an upload whose processing this request claimed: files, tus state, then the row. */
  async function discard(id: string) {
    await deleteImageIn(app.images, id, ['processing']).catch((cause: unknown) =>
      app.log.warn({ err: cause, imageId: id }, 'discarding an upload failed'),
    );
  }

  return new Server({
    path: UPLOAD_ENDPOINT,
    datastore: store,
    // Shared by every app server (upload-locker.ts): a PATCH on one server waits for another's.
    ...(locker ? { locker } : {}),
    maxSize: MAX_IMAGE_BYTES,
    relativeLocation: true,
    respectForwardedHeaders: app.config.trustProxy,
    // Asked at each request: the request's campus's address (decision 024; the server is made on
    // the first upload, in that request's campus), no other campus's.
    allowedOrigins: (origin) => origin === new URL(app.config.publicUrl).origin,
    // Names come from the server only; a user's file name never reaches a storage key.
    namingFunction: () => randomUUID(),
    getFileIdFromRequest: (req) => {
      const raw = nodeRequest(req);
      return raw && uploadIdOf.get(raw);
    },

    async onUploadCreate(req, upload) {
      const ownerId = uploaderOfRequest(req);
      await insertUploadingImage(db, { id: upload.id, ownerId, bytes: upload.size ?? 0 });
      return {};
    },

    async onUploadFinish(_req, upload) {
      // Any number of PATCHes may arrive here for the same upload (an empty PATCH at the final
      // offset "finishes" it again), on any app server: one statement lets exactly one of them
      // process it. The others are refused; the row is never touched by a request that lost.
      if (!(await claimImageForProcessing(db, upload.id)))
        throw tusError(409, UPLOAD_ALREADY_FINISHED);

      let processed;
      let bytes: Buffer;
      try {
        bytes = await store.readAll(upload.id);
        processed = await processImage(bytes);
      } catch (error) {
        await discard(upload.id);
        if (error instanceof AppError) throw tusError(error.statusCode, error.message);
        throw error;
      }
      let ready = false;
      try {
        for (const variant of processed.variants) {
          const key = `${imageFolder(upload.id)}${variant.name}.webp`;
          await app.storage.put(key, variant.data, 'image/webp');
        }
        // Still `processing` unless the account was deleted meanwhile (deleteImages marks all).
        ready = await markImageReady(db, upload.id, {
          bytes: bytes.length,
          width: processed.width,
          height: processed.height,
        });
      } catch (error) {
        app.log.error({ err: error, imageId: upload.id }, 'storing an image failed');
        await discard(upload.id);
        throw tusError(503, 'The image could not be stored, please try again');
      }
      if (!ready) {
        // Whoever marked the row deletes what it found; these files may have come after.
        await deletePrefixQuietly(upload.id);
        throw tusError(410, UPLOAD_ALREADY_FINISHED);
      }
      await store.discard(upload.id).catch((error: unknown) => {
        // The image is stored; the leftover tus state goes when the image is deleted.
        app.log.warn({ err: error, imageId: upload.id }, 'deleting tus state failed');
      });
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
