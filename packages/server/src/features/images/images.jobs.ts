import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { retryImageDeletion, sweepImages, type ImageDeps } from './images.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** What deleting images uses (images.service.ts): built once, here. */
    images: ImageDeps;
  }
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The images' background jobs (app.jobs: run by one app server, retried when they fail): the hourly
 * sweep of images nothing attached, and the retry of a failed file deletion (enqueued by
 * images.service); and `app.images`, what every deletion of images uses.
 */
export default fp(
  async function imageJobsPlugin(app: FastifyInstance) {
    const images: ImageDeps = {
      db: app.database.db,
      storage: app.storage,
      log: app.log,
      jobs: app.jobs,
    };
    app.decorate('images', images);
    app.jobs.register(
      'sweep-images',
      // Each campus's run sees its own images and its own folder of the store (decision 024).
      async ({ now }) => {
        await sweepImages(images, now);
      },
      { every: SWEEP_INTERVAL_MS },
    );
    app.jobs.register<{ id: string }>('delete-image', async ({ payload }) => {
      await retryImageDeletion(images, payload.id);
    });
  },
  { name: 'image-jobs', dependencies: ['jobs', 'storage'] },
);
