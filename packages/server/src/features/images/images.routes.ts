import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMAGE_VARIANTS,
  imageVariantFallbacks,
  type ImageVariant,
} from '@campus-books/common/images';
import { errorResponses } from '@campus-books/common/api';
import { notFound } from '../../lib/errors';
import { imageFolder } from './images.service';

const fileName = (variant: ImageVariant) => `${variant}.webp`;
const FILE_NAMES = IMAGE_VARIANTS.map(fileName) as [string, ...string[]];

/**
 * Image ids are lower-case UUIDs, the only spelling image URLs ever use and the one storage keys
 * accept: a UUID in another case names no image (404, as an unknown id); a non-UUID is a 400.
 */
const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const params = z.object({ id: z.uuid(), file: z.enum(FILE_NAMES) });

const variantOf = (file: string): ImageVariant => {
  const name = file.slice(0, -'.webp'.length);
  return name === 'full' ? 'full' : (Number(name) as ImageVariant);
};

/** The exact variant never changes, so it caches forever; a stand-in may later be replaced. */
const CACHE_EXACT = 'public, max-age=31536000, immutable';
const CACHE_STAND_IN = 'public, max-age=86400';

/**
 * GET /api/images/:id/:file: a stored WebP variant. An image stored before a width was added lacks
 * that file: it is answered with the next larger variant it has, never a 404.
 */
export default async function imagesRoutes(app: FastifyInstance) {
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
      const folder = imageFolder(id);
      let bytes = await app.storage.get(`${folder}${file}`);
      let cacheControl = CACHE_EXACT;
      if (!bytes) {
        // One listing of the image's folder rather than a read per candidate (S3 requests cost).
        const stored = new Set((await app.storage.list(folder)).map((o) => o.key));
        const standIn = imageVariantFallbacks(variantOf(file))
          .map((variant) => `${folder}${fileName(variant)}`)
          .find((key) => stored.has(key));
        bytes = standIn ? await app.storage.get(standIn) : null;
        cacheControl = CACHE_STAND_IN;
      }
      if (!bytes) throw notFound('Image not found');
      return (
        reply
          .header('Content-Type', 'image/webp')
          .header('Cache-Control', cacheControl)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          // A Buffer is sent as it is; the schema above only documents it.
          .send(bytes as unknown as string)
      );
    },
  );
}
