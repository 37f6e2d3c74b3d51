import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { expireHolds } from './offers.service';

/**
 * The recurring hold job (every HOLD_CHECK_MS, one server per slot): a hold whose time is over ends,
 * and both sides (every conversation about the listing) are told. Safe to repeat: the update that
 * ends a hold is conditional, so a hold ends once, by the job or by its seller.
 */
export default fp(
  async function holdExpiryPlugin(app: FastifyInstance) {
    app.jobs.register(
      'hold-expiry',
      async ({ now }) => {
        const ended = await expireHolds({
          db: app.database.db,
          now: () => now,
          config: app.config.conversations,
        });
        // On the embedded engine caches are emptied by this process's own writes only.
        if (ended > 0) app.listingCaches.invalidate();
      },
      { every: app.config.conversations.holdCheckMs },
    );
  },
  { name: 'hold-expiry', dependencies: ['jobs', 'listing-caches'] },
);
