import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { images } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/sessions';
import { deleteImages, sweepImages } from './images.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The tus endpoint (docs/api/uploads.md): POST / creates an upload, HEAD/PATCH/DELETE /:id resume,
 * send and cancel it (termination). Only signed-in, verified users; only the owner may touch an upload. DELETE of
 * a processed upload that nothing uses yet deletes the image (the create form's Delete button).
 */
export default async function uploadsRoutes(app: FastifyInstance) {
  // The tus server and image processing (sharp) load on the first upload, not at start-up.
  let tus: ReturnType<typeof loadTus> | undefined;
  async function loadTus() {
    const [{ createTusServer, uploaderOf }, { StorageDataStore }] = await Promise.all([
      import('./tus-server'),
      import('./tus-storage-store'),
    ]);
    return { server: createTusServer(app, new StorageDataStore(app.storage)), uploaderOf };
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

  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    const { server, uploaderOf } = await getTus();
    uploaderOf.set(request.raw, currentUser(request).id);
    reply.hijack();
    try {
      await server.handle(request.raw, reply.raw);
    } catch (error) {
      request.log.error({ err: error }, 'tus handler failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(
          JSON.stringify({ success: false, statusCode: 500, message: 'The upload failed' }),
        );
      } else reply.raw.destroy();
    }
  }

  /** The caller's own upload, or 404 (another user's upload is indistinguishable from none). */
  async function ownUpload(request: FastifyRequest<{ Params: { id: string } }>) {
    const { id } = request.params;
    if (!UUID.test(id)) throw notFound('Upload not found');
    const [row] = await app.database.db
      .select()
      .from(images)
      .where(and(eq(images.id, id), eq(images.ownerId, currentUser(request).id)));
    if (!row) throw notFound('Upload not found');
    return row;
  }

  const guard = { preHandler: app.requireVerifiedUser };

  app.post('/', guard, handOver);

  app.route<{ Params: { id: string } }>({
    method: ['HEAD', 'PATCH'],
    url: '/:id',
    ...guard,
    handler: async (request, reply) => {
      const row = await ownUpload(request);
      if (row.status !== 'uploading') throw notFound('Upload not found');
      return handOver(request, reply);
    },
  });

  // tus termination of an upload in progress, and deletion of a processed one nothing uses yet: both
  // go through deleteImages, which marks the row first so a failed file deletion is retried.
  app.delete<{ Params: { id: string } }>('/:id', guard, async (request, reply) => {
    const row = await ownUpload(request);
    if (row.status === 'attached' || row.status === 'deleting') {
      throw conflict('This image is used by a listing or your profile: remove it there');
    }
    await deleteImages(app, [row.id]);
    if (row.status === 'uploading')
      return reply.header('Tus-Resumable', '1.0.0').status(204).send();
    return { success: true, message: 'Image deleted' };
  });

  const timer = setInterval(() => {
    sweepImages(app).catch((error) => app.log.error({ err: error }, 'image sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
