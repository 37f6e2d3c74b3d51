import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { retryImageDeletion, sweepImages } from './images.service';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The images' background jobs (app.jobs: run by one app server, retried when they fail): the hourly
 * sweep of images nothing attached, and the retry of a failed file deletion (enqueued by
 * images.service).
 */
export default fp(
  async function imageJobsPlugin(app: FastifyInstance) {
    app.jobs.register(
      'sweep-images',
      async ({ now }) => {
        await sweepImages(app, now);
      },
      { every: SWEEP_INTERVAL_MS },
    );
    app.jobs.register<{ id: string }>('delete-image', async ({ payload }) => {
      await retryImageDeletion(app, payload.id);
    });
  },
  { name: 'image-jobs', dependencies: ['jobs', 'storage'] },
);
