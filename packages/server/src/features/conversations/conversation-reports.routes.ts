import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_USER_ERRORS } from '../../plugins/sessions';
import { moderatorHooks } from '../moderation/moderators';
import {
  dismissConversationReports,
  readReportedConversation,
  reportedConversations,
} from './conversation-reports.service';
import type { ConversationDeps } from './conversations.service';

const moderatorErrors = { ...REQUIRE_USER_ERRORS, 403: 'Not a campus moderator' } as const;

/**
 * /api/moderation/conversations: the conversations students reported. The list names who reported
 * what; reading the messages is a separate, logged request, answered only while a report is open.
 * (Suspending a student is the moderation routes' own suspend.)
 */
export default async function conversationReportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const moderators = moderatorHooks(app);
  const deps: ConversationDeps = {
    db: app.database.db,
    now: () => app.jobs.now(),
    config: app.config.conversations,
  };

  app.get(
    '/',
    {
      ...moderators,
      schema: {
        response: {
          200: apiRoutes['GET /api/moderation/conversations'].response,
          ...errorResponses(moderatorErrors),
        },
      },
    },
    async () => ({ conversations: await reportedConversations(deps) }),
  );

  app.get(
    '/:id',
    {
      ...moderators,
      schema: {
        params: apiRoutes['GET /api/moderation/conversations/:id'].params,
        response: {
          200: apiRoutes['GET /api/moderation/conversations/:id'].response,
          ...errorResponses({ ...moderatorErrors, 404: 'No conversation with an open report' }),
        },
      },
    },
    async (request) => readReportedConversation(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/:id/dismiss',
    {
      ...moderators,
      schema: {
        params: apiRoutes['POST /api/moderation/conversations/:id/dismiss'].params,
        response: {
          200: apiRoutes['POST /api/moderation/conversations/:id/dismiss'].response,
          ...errorResponses({
            ...moderatorErrors,
            404: 'No reported conversation has this id',
            409: 'Its reports are already dismissed',
          }),
        },
      },
    },
    async (request) => {
      await dismissConversationReports(deps, currentUser(request), request.params.id);
      return { success: true as const, message: 'Reports dismissed' };
    },
  );
}
