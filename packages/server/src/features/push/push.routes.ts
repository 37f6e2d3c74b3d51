import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { PUSH_MESSAGES } from '@campus-books/common/push.schemas';
import { badRequest } from '../../lib/errors';
import {
  currentUser,
  REQUIRE_USER_ERRORS,
  REQUIRE_VERIFIED_USER_ERRORS,
} from '../../plugins/sessions';
import { isAllowedEndpoint } from './push-endpoint';
import { deleteSubscription, findSubscriptionsOf, saveSubscription } from './push.repository';

/**
 * /api/push: a device turns notifications on (its subscription, kept for the session that made it)
 * or off, and which of the student's devices are on; the VAPID public key it subscribes with. What is sent: push.jobs.ts.
 */
export default async function pushRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/key',
    { schema: { response: { 200: apiRoutes['GET /api/push/key'].response } } },
    async () => ({
      publicKey: app.push.publicKey,
    }),
  );

  // A device's profile page asks whether it is among them (and with alerts or not).
  app.get(
    '/subscriptions',
    {
      preValidation: app.requireUser,
      schema: {
        response: {
          200: apiRoutes['GET /api/push/subscriptions'].response,
          ...errorResponses(REQUIRE_USER_ERRORS),
        },
      },
    },
    async (request) => ({
      subscriptions: await findSubscriptionsOf(app.database.db, currentUser(request).id),
    }),
  );

  app.post(
    '/subscriptions',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        body: apiRoutes['POST /api/push/subscriptions'].body,
        response: {
          200: apiRoutes['POST /api/push/subscriptions'].response,
          ...errorResponses({
            400: 'Not a subscription this server can use (the endpoint must be https, on a public host)',
            ...REQUIRE_VERIFIED_USER_ERRORS,
          }),
        },
      },
    },
    async (request) => {
      const { endpoint, keys, alerts } = request.body;
      if (!isAllowedEndpoint(endpoint, app.config.push.testEndpoints)) {
        throw badRequest(PUSH_MESSAGES.endpoint);
      }
      return saveSubscription(app.database.db, {
        userId: currentUser(request).id,
        sessionId: request.session!.sessionId,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        alerts,
      });
    },
  );

  app.delete(
    '/subscriptions',
    {
      preValidation: app.requireUser,
      schema: {
        body: apiRoutes['DELETE /api/push/subscriptions'].body,
        response: {
          200: apiRoutes['DELETE /api/push/subscriptions'].response,
          ...errorResponses(REQUIRE_USER_ERRORS),
        },
      },
    },
    async (request) => {
      // The same answer whether this student had it or not: nothing to learn about other devices.
      await deleteSubscription(app.database.db, currentUser(request).id, request.body.endpoint);
      return { success: true as const, message: 'Notifications are off on this device' };
    },
  );
}
