import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLocalStorage } from '../lib/storage/local-storage';
import { createS3Storage } from '../lib/storage/s3-storage';
import type { Storage } from '../lib/storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files: S3 when S3_BUCKET is set, else DATA_DIR/uploads. */
    storage: Storage;
  }
}

export default fp(
  async function storagePlugin(app: FastifyInstance) {
    const storage = app.config.s3
      ? createS3Storage(app.config.s3)
      : createLocalStorage(path.join(app.config.dataDir, 'uploads'));
    app.decorate('storage', storage);
    app.addHook('onClose', () => storage.close());
  },
  { name: 'storage' },
);
