import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { runInCampus } from '../../campuses/campus-context';
import { notFound } from '../../lib/errors';
import { isPublicImage } from './images.repository';
import { IMAGE_FILE_NAMES, readImageFile } from './images.service';

/**
 * Image ids are lower-case UUIDs, the only spelling image URLs ever use and the one storage keys
 * accept: a UUID in another case names no image (404, as an unknown id); a non-UUID is a 400.
 */
const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const params = z.object({ id: z.uuid(), file: z.enum(IMAGE_FILE_NAMES) });

/** The exact variant never changes, so it caches forever; a stand-in may later be replaced. */
const CACHE_EXACT = 'public, max-age=31536000, immutable';
const CACHE_STAND_IN = 'public, max-age=86400';

/**
 * GET /api/images/:id/:file: a stored WebP variant. An image stored before a width was added lacks
 * that file: it is answered with the next larger variant it has, never a 404. A message's photo is
 * not served here (404): only its conversation's participants get it, from the conversation's route.
 * Nor is an image the campus has no row of (404): another campus's, in the storage they share,
 * unless that campus shares with this one (a partner's listing's cover in this campus's search).
 */
export default async function imagesRoutes(app: FastifyInstance) {
  /** The campus's public image, read as the campus of the work at hand: its rows, its files. */
  const readOwnPublicImage = async (id: string, file: string) =>
    (await isPublicImage(app.database.db, id)) ? readImageFile(app.storage, id, file) : null;
  /**
   * This campus's image, else a partner campus's (consortium sharing: its listings' covers show in
   * this campus's search), read as that campus (its rows under its role, its files), as its own
   * host would serve it.
   */
  const readPublicImage = async (id: string, file: string) => {
    const own = await readOwnPublicImage(id, file);
    if (own) return own;
    for (const { work } of app.consortium.partners()) {
      const found = await runInCampus(work, () => readOwnPublicImage(id, file));
      if (found) return found;
    }
    return null;
  };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/:id/:file',
    {
      schema: {
        params,
        response: {
          200: {
            description: 'The WebP file (or the next larger variant the image has)',
            content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } },
          },
          ...errorResponses({ 400: 'Not an image URL', 404: 'No such image' }),
        },
      },
    },
    async (request, reply) => {
      const { id, file } = request.params;
      if (!IMAGE_ID.test(id)) throw notFound('Image not found');
      const found = await readPublicImage(id, file);
      if (!found) throw notFound('Image not found');
      return (
        reply
          .header('Content-Type', 'image/webp')
          .header('Cache-Control', found.exact ? CACHE_EXACT : CACHE_STAND_IN)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          // A Buffer is sent as it is; the schema above only documents it.
          .send(found.bytes as unknown as string)
      );
    },
  );
}
