import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { campusAwareStorage } from '../campuses/campus-storage';
import { createLocalStorage } from '../lib/storage/local-storage';
import type { Storage } from '../lib/storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Uploaded files: S3 when S3_BUCKET is set, else DATA_DIR/uploads. Several campuses: the work
     * at hand's campus's folder of it (campuses/campus-storage.ts).
     */
    storage: Storage;
  }
}

export interface StoragePluginOptions {
  /** A many-campus installation (decision 024): each campus's files under its own prefix. */
  perCampus?: boolean;
}

export default fp(
  async function storagePlugin(app: FastifyInstance, options: StoragePluginOptions) {
    let storage: Storage;
    if (app.config.s3) {
      // The AWS SDK is loaded only when S3 is configured: it costs start-up time for nothing otherwise.
      const { createS3Storage } = await import('../lib/storage/s3-storage');
      storage = createS3Storage(app.config.s3);
    } else {
      storage = createLocalStorage(path.join(app.config.dataDir, 'uploads'));
    }
    app.decorate('storage', options.perCampus ? campusAwareStorage(storage) : storage);
    app.addHook('onClose', () => storage.close());
  },
  { name: 'storage' },
);
