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
      // Quality 1 with a 256 KB window: a search answer of 8.6 KB in ~28 µs to 2,025 bytes. Quality
      // 3 gave 1,856 bytes in ~50 µs, and the server spent 0.05 ms more of its CPU on each search
      // (docs/performance.md): 170 bytes are not worth a tenth of a search's cost. Quality 4 took
      // 80 µs for 1,789 bytes.
      brotliOptions: {
        params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 18 },
      },
    });
  },
  { name: 'compression' },
);
