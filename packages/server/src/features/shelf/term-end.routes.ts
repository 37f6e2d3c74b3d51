import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { isTermEndSubscriber, setTermEndSubscription } from './term-end.repository';

const signedIn = errorResponses(REQUIRE_VERIFIED_USER_ERRORS);

/** /api/term-end-mail: whether the student gets the end-of-term mail (off until turned on). */
export default async function termEndRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/term-end-mail'].response, ...signedIn } },
    },
    async (request) => {
      const subscribed = await isTermEndSubscriber(app.database.db, currentUser(request).id);
      return { success: true as const, subscribed };
    },
  );

  // Setting it twice, or at once from two tabs, ends in the state asked for.
  app.put(
    '/',
    {
      ...verified,
      schema: {
        body: apiRoutes['PUT /api/term-end-mail'].body,
        response: {
          200: apiRoutes['PUT /api/term-end-mail'].response,
          ...signedIn,
          ...errorResponses({ 400: 'The body is not valid' }),
        },
      },
    },
    async (request) => {
      const { subscribed } = request.body;
      await setTermEndSubscription(app.database.db, currentUser(request).id, subscribed);
      return { success: true as const, subscribed };
    },
  );
}
