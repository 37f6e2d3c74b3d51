import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { notFound } from '../../lib/errors';
import { IMAGE_FILE_NAMES, readImageFile } from '../images/images.service';
import { assertMayViewPhoto, PHOTO_NOT_FOUND } from './message-photos.service';

const params = z.object({
  id: z.string().max(100),
  imageId: z.uuid(),
  file: z.enum(IMAGE_FILE_NAMES),
});

/**
 * GET /api/conversations/:id/photos/:imageId/:file: a message's photo, only to the conversation's
 * participants (and moderators of a reported conversation, logged). Private: no shared cache keeps
 * it, and a browser asks again after an hour (a dismissed report ends a moderator's access).
 */
export default async function messagePhotosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = {
    db: app.database.db,
    now: () => app.jobs.now(),
    config: app.config.conversations,
    // Read at each request: its campus's moderators (decision 024).
    get trust() {
      return app.config.trust;
    },
  };
  app.get(
    '/:id/photos/:imageId/:file',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        params,
        response: {
          200: {
            description: 'The WebP file of the photo (or the next larger variant it has)',
            content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } },
          },
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            400: 'Not a photo URL',
            404: 'No such photo in a conversation of yours',
          }),
        },
      },
    },
    async (request, reply) => {
      const { id, imageId, file } = request.params;
      await assertMayViewPhoto(deps, currentUser(request), id, imageId);
      const found = await readImageFile(app.storage, imageId, file);
      if (!found) throw notFound(PHOTO_NOT_FOUND);
      return (
        reply
          .header('Content-Type', 'image/webp')
          .header('Cache-Control', 'private, max-age=3600')
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          // A Buffer is sent as it is; the schema above only documents it.
          .send(found.bytes as unknown as string)
      );
    },
  );
}
