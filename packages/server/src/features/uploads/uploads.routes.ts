import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { MAX_UPLOADS_PER_HOUR } from '@campus-books/common/images';
import type { ImageRow } from '../../db/schema';
import { AppError, badRequest, conflict, errorBody, notFound } from '../../lib/errors';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { TOO_MANY_UPLOADS, UPLOAD_CAP, deleteImageIn } from '../images/images.service';
import { findImage, findOwnImage } from '../images/images.repository';
import { DatabaseLocker } from './upload-locker';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * What tus writes (the routes hand the raw response over, so these schemas document, they do not
 * serialise): headers for every step, and the stored image as JSON when the last chunk arrives.
 */
const uploadedImage = z.object({
  success: z.literal(true),
  _id: z.string(),
  url: z.string().describe("The image's URL, for a listing's imageUrls or an avatar"),
  width: z.number().int(),
  height: z.number().int(),
});
const uploaderErrors = errorResponses({
  400: 'A query string, or a tus header is missing',
  ...REQUIRE_VERIFIED_USER_ERRORS,
  404: 'No such upload of yours',
  409: 'The image is being processed or is in use',
  412: 'No `Tus-Resumable: 1.0.0` header (tus)',
  413: 'The image is too large',
  415: 'Not a JPEG, PNG, WebP or HEIC image',
  422: 'The image cannot be read, or has too many pixels',
  429: 'Too many uploads this hour',
});
const uploadResponses = {
  200: uploadedImage.describe('The last chunk arrived: the image is stored'),
  201: z.undefined().describe('Created: the Location header names the upload'),
  204: z.undefined().describe('Chunk stored: Upload-Offset says how far (tus)'),
  ...uploaderErrors,
};

export const UPLOAD_QUERY_REFUSED = 'Upload URLs take no query string';
const BEING_PROCESSED = 'This image is still being processed: try again in a moment';
const IN_USE = 'This image is used by a listing or your profile: remove it there';
const IN_MESSAGE = 'This image was sent in a message: it stays with the conversation';

/**
 * The tus endpoint (docs/api/uploads.md): POST / creates an upload, HEAD/PATCH/DELETE /:id resume,
 * send and cancel it (termination). Only signed-in, verified users; only the owner may touch an upload. DELETE of
 * a processed upload that nothing uses yet deletes the image (the create form's Delete button).
 */
export default async function uploadsRoutes(app: FastifyInstance) {
  // The tus server and image processing (sharp) load on the first upload, not at start-up.
  let tus: ReturnType<typeof loadTus> | undefined;
  // One request at a time writes an upload, across every app server (it listens on first use).
  const locker = new DatabaseLocker(app.database);
  app.addHook('onClose', async () => locker.close());
  async function loadTus() {
    const [{ createTusServer, uploaderOf, uploadIdOf }, { StorageDataStore }] = await Promise.all([
      import('./tus-server'),
      import('./tus-storage-store'),
    ]);
    return {
      server: createTusServer(app, new StorageDataStore(app.storage), locker),
      uploaderOf,
      uploadIdOf,
    };
  }
  const getTus = () =>
    (tus ??= loadTus().catch((error: unknown) => {
      tus = undefined; // try again on the next upload
      throw error;
    }));

  // tus reads PATCH bodies itself: leave the stream untouched (and outside the JSON body limit).
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
    done(null),
  );

  // The tus server and the routes must agree on which upload a URL names. Only the path names it:
  // a query string is refused outright rather than left for some parser to read differently.
  app.addHook('onRequest', async (request) => {
    if (request.raw.url?.includes('?')) throw badRequest(UPLOAD_QUERY_REFUSED);
  });

  /** Hands the request to tus; `id` is the route's parsed, ownership-checked upload id. */
  async function handOver(request: FastifyRequest, reply: FastifyReply, id?: string) {
    const { server, uploaderOf, uploadIdOf } = await getTus();
    uploaderOf.set(request.raw, currentUser(request).id);
    if (id) uploadIdOf.set(request.raw, id);
    reply.hijack();
    try {
      await server.handle(request.raw, reply.raw);
    } catch (error) {
      request.log.error({ err: error }, 'tus handler failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(JSON.stringify(errorBody(500, 'The upload failed')));
      } else reply.raw.destroy();
    }
  }

  /** The caller's own upload, or 404 (another user's upload is indistinguishable from none). */
  async function ownUpload(request: FastifyRequest<{ Params: { id: string } }>) {
    const { id } = request.params;
    if (!UUID.test(id)) throw notFound('Upload not found');
    const row = await findOwnImage(app.database.db, id, currentUser(request).id);
    if (!row) throw notFound('Upload not found');
    return row;
  }

  const guard = { preHandler: app.requireVerifiedUser };

  // Every upload started counts, whatever becomes of it (refused, cancelled, deleted): counted here,
  // before tus sees the request, not from the rows that still exist.
  const hourlyCap = app.limitAttempts({
    name: UPLOAD_CAP.name,
    max: MAX_UPLOADS_PER_HOUR,
    windowMs: UPLOAD_CAP.windowMs,
    keyOf: (request) => currentUser(request).id,
  });
  async function countUpload(request: FastifyRequest, reply: FastifyReply) {
    try {
      await hourlyCap(request, reply);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 429) {
        throw new AppError(429, TOO_MANY_UPLOADS);
      }
      throw error;
    }
  }

  app.post(
    '/',
    { preHandler: [app.requireVerifiedUser, countUpload], schema: { response: uploadResponses } },
    (request, reply) => handOver(request, reply),
  );

  /** Why a request about an upload in this state is refused. */
  const refusal = (status: ImageRow['status']) =>
    status === 'processing'
      ? conflict(BEING_PROCESSED)
      : status === 'attached'
        ? conflict(IN_USE)
        : status === 'in_message'
          ? conflict(IN_MESSAGE)
          : notFound('Upload not found');

  app.route<{ Params: { id: string } }>({
    method: ['HEAD', 'PATCH'],
    url: '/:id',
    ...guard,
    schema: {
      response: {
        ...uploadResponses,
        200: uploadedImage.describe('HEAD: Upload-Offset says how far; PATCH: the image is stored'),
      },
    },
    handler: async (request, reply) => {
      const row = await ownUpload(request);
      if (row.status !== 'uploading') throw refusal(row.status);
      return handOver(request, reply, row.id);
    },
  });

  // tus termination of an upload in progress, and deletion of a processed one nothing uses yet. The
  // row's status is re-checked in the deleting statement itself, so of racing requests (two
  // DELETEs, a DELETE and the PATCH finishing the upload) exactly one acts and the others get 4xx.
  const deleteRoute = apiRoutes['DELETE /api/uploads/:id'];
  const deleteSchema = {
    params: deleteRoute.params,
    response: { ...deleteRoute.response, ...uploaderErrors },
  };
  app.delete<{ Params: { id: string } }>(
    '/:id',
    { ...guard, schema: deleteSchema },
    async (request, reply) => {
      const row = await ownUpload(request);
      if (row.status !== 'uploading' && row.status !== 'ready') throw refusal(row.status);
      const userId = currentUser(request).id;
      if (!(await deleteImageIn(app.images, row.id, ['uploading', 'ready'], userId))) {
        const now = await findImage(app.database.db, row.id);
        throw refusal(now?.status ?? 'deleting');
      }
      if (row.status === 'uploading')
        return reply.header('Tus-Resumable', '1.0.0').status(204).send();
      return { success: true, message: 'Image deleted' };
    },
  );
}
