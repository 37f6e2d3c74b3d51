import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { imageFolder } from './images.service';

const params = z.object({
  id: z.uuid(),
  file: z.enum(['320.webp', '640.webp', '1280.webp', 'full.webp']),
});

/** GET /api/images/:id/:file: a stored WebP variant; its URL never changes, so it caches forever. */
export default async function imagesRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/:id/:file', { schema: { params } }, async (request, reply) => {
      const { id, file } = request.params;
      const bytes = await app.storage.get(`${imageFolder(id)}${file}`);
      if (!bytes) throw notFound('Image not found');
      return reply
        .header('Content-Type', 'image/webp')
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(bytes);
    });
}
