import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiMessageSchema, errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_USER_ERRORS } from '../../plugins/sessions';
import {
  dismissReports,
  moderationLogEntries,
  moderationQueue,
  removeListing,
  restoreListing,
  suspendUser,
  unsuspendUser,
  type ModerationDeps,
} from './moderation.service';
import { moderatorHooks } from './moderators';

const moderatorErrors = errorResponses({ ...REQUIRE_USER_ERRORS, 403: 'Not a campus moderator' });
const actionErrors = errorResponses({
  400: 'The body is not valid',
  ...REQUIRE_USER_ERRORS,
  403: 'Not a campus moderator',
  404: 'No such listing or user',
  409: 'Nothing to do: already done',
});
const actionResponse = { 200: apiMessageSchema, ...actionErrors };

/** /api/moderation: the campus moderators' queue, actions and audit log (403 for anyone else). */
export default async function moderationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const moderatorOnly = moderatorHooks(app);
  const moderation: ModerationDeps = {
    db: app.database.db,
    caches: app.listingCaches,
    images: app.images,
    mailer: app.mailer,
  };

  app.get(
    '/queue',
    {
      ...moderatorOnly,
      schema: {
        response: { 200: apiRoutes['GET /api/moderation/queue'].response, ...moderatorErrors },
      },
    },
    async () => moderationQueue(app.database.db),
  );
  app.get(
    '/log',
    {
      ...moderatorOnly,
      schema: {
        response: { 200: apiRoutes['GET /api/moderation/log'].response, ...moderatorErrors },
      },
    },
    async () => moderationLogEntries(app.database.db),
  );

  app.post(
    '/listings/:listingId/dismiss',
    {
      ...moderatorOnly,
      schema: {
        params: apiRoutes['POST /api/moderation/listings/:listingId/dismiss'].params,
        response: actionResponse,
      },
    },
    async (request) => {
      await dismissReports(moderation, currentUser(request), request.params.listingId);
      return { success: true as const, message: 'Reports dismissed' };
    },
  );

  app.post(
    '/listings/:listingId/remove',
    {
      ...moderatorOnly,
      schema: {
        params: apiRoutes['POST /api/moderation/listings/:listingId/remove'].params,
        body: apiRoutes['POST /api/moderation/listings/:listingId/remove'].body,
        response: actionResponse,
      },
    },
    async (request) => {
      const { listingId } = request.params;
      await removeListing(moderation, currentUser(request), listingId, request.body.reason);
      return { success: true as const, message: 'Listing removed; the seller was told why' };
    },
  );

  app.post(
    '/listings/:listingId/restore',
    {
      ...moderatorOnly,
      schema: {
        params: apiRoutes['POST /api/moderation/listings/:listingId/restore'].params,
        response: actionResponse,
      },
    },
    async (request) => {
      await restoreListing(moderation, currentUser(request), request.params.listingId);
      return { success: true as const, message: 'Listing restored' };
    },
  );

  app.post(
    '/users/:userId/suspend',
    {
      ...moderatorOnly,
      schema: {
        params: apiRoutes['POST /api/moderation/users/:userId/suspend'].params,
        body: apiRoutes['POST /api/moderation/users/:userId/suspend'].body,
        response: actionResponse,
      },
    },
    async (request) => {
      await suspendUser(
        moderation,
        currentUser(request),
        request.params.userId,
        request.body.reason,
      );
      return { success: true as const, message: 'Seller suspended' };
    },
  );

  app.post(
    '/users/:userId/unsuspend',
    {
      ...moderatorOnly,
      schema: {
        params: apiRoutes['POST /api/moderation/users/:userId/unsuspend'].params,
        response: actionResponse,
      },
    },
    async (request) => {
      await unsuspendUser(moderation, currentUser(request), request.params.userId);
      return { success: true as const, message: 'Seller unsuspended' };
    },
  );
}
