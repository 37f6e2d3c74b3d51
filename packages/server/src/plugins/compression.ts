import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Compresses HTML and JSON answers (brotli at a cheap level, or gzip). Built assets are served
 * precompressed by the web plugin, and images are already compressed, so neither is compressed here.
 */
export default fp(
  async function compressionPlugin(app: FastifyInstance) {
    await app.register(compress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'compression' },
);
