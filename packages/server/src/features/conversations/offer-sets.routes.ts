import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { getParticipantConversation, type ConversationDeps } from './conversations.service';
import { bundleCandidates } from './offer-sets';

/**
 * /api/conversations/{id}/bundle-candidates: the seller's other listings a buyer may add to one
 * offer for several books (issue 44), those of the same course first.
 */
export default async function offerSetsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: ConversationDeps = {
    db: app.database.db,
    now: () => app.jobs.now(),
    config: app.config.conversations,
  };

  app.get(
    '/:id/bundle-candidates',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['GET /api/conversations/:id/bundle-candidates'].params,
        response: {
          200: apiRoutes['GET /api/conversations/:id/bundle-candidates'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            404: 'No such conversation, or not one of yours',
          }),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const conversation = await getParticipantConversation(deps, user, request.params.id);
      return { listings: await bundleCandidates(deps.db, user, conversation, deps.now()) };
    },
  );
}
