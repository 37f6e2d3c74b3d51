import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { moderationReasonSchema } from '@campus-books/common/moderation.schemas';
import { currentUser } from '../../plugins/sessions';
import {
  dismissReports,
  moderationLogEntries,
  moderationQueue,
  removeListing,
  suspendUser,
  unsuspendUser,
} from './moderation.service';
import { moderatorHooks } from './moderators';

const listingParams = z.object({ listingId: z.string() });
const userParams = z.object({ userId: z.string() });

/** /api/moderation: the campus moderators' queue, actions and audit log (403 for anyone else). */
export default async function moderationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const moderatorOnly = moderatorHooks(app);

  app.get('/queue', moderatorOnly, async () => moderationQueue(app));
  app.get('/log', moderatorOnly, async () => moderationLogEntries(app));

  app.post(
    '/listings/:listingId/dismiss',
    { ...moderatorOnly, schema: { params: listingParams } },
    async (request) => {
      await dismissReports(app, currentUser(request), request.params.listingId);
      return { success: true, message: 'Reports dismissed' };
    },
  );

  app.post(
    '/listings/:listingId/remove',
    { ...moderatorOnly, schema: { params: listingParams, body: moderationReasonSchema } },
    async (request) => {
      const { listingId } = request.params;
      await removeListing(app, currentUser(request), listingId, request.body.reason);
      return { success: true, message: 'Listing removed; the seller was told why' };
    },
  );

  app.post(
    '/users/:userId/suspend',
    { ...moderatorOnly, schema: { params: userParams, body: moderationReasonSchema } },
    async (request) => {
      await suspendUser(app, currentUser(request), request.params.userId, request.body.reason);
      return { success: true, message: 'Seller suspended' };
    },
  );

  app.post(
    '/users/:userId/unsuspend',
    { ...moderatorOnly, schema: { params: userParams } },
    async (request) => {
      await unsuspendUser(app, currentUser(request), request.params.userId);
      return { success: true, message: 'Seller unsuspended' };
    },
  );
}
