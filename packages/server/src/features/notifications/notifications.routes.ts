import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activeCampus } from '@campus-books/common/active-campus';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { loadNotificationSettings, saveNotificationSettings } from './notification-settings';

const signedIn = errorResponses(REQUIRE_VERIFIED_USER_ERRORS);

/** /api/notifications: what reaches the student, per kind and channel, and their quiet hours. */
export default async function notificationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/notifications'].response, ...signedIn } },
    },
    async (request) => ({
      ...(await loadNotificationSettings(app.database.db, currentUser(request).id)),
      timeZone: activeCampus().timeZone,
    }),
  );

  // The whole of the choices each time: saving twice, or from two tabs, ends in the state sent.
  app.put(
    '/',
    {
      ...verified,
      schema: {
        body: apiRoutes['PUT /api/notifications'].body,
        response: {
          200: apiRoutes['PUT /api/notifications'].response,
          ...signedIn,
          ...errorResponses({ 400: 'The body is not valid' }),
        },
      },
    },
    async (request) => {
      await saveNotificationSettings(app.database.db, currentUser(request).id, request.body);
      return {
        success: true as const,
        ...request.body,
        timeZone: activeCampus().timeZone,
        message: 'Your notification choices are saved',
      };
    },
  );
}
