import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { setReadReceipts } from '../accounts/users.repository';

/**
 * /api/conversations/receipts: whether the student shows read receipts ("Seen"). On by default;
 * off, the other side sees none of theirs and they see none of the other side's (as the apps do).
 */
export default async function receiptsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/receipts',
    {
      ...verified,
      schema: {
        response: {
          200: apiRoutes['GET /api/conversations/receipts'].response,
          ...errorResponses(REQUIRE_VERIFIED_USER_ERRORS),
        },
      },
    },
    async (request) => ({ readReceipts: currentUser(request).readReceipts }),
  );

  app.post(
    '/receipts',
    {
      ...verified,
      schema: {
        body: apiRoutes['POST /api/conversations/receipts'].body,
        response: {
          200: apiRoutes['POST /api/conversations/receipts'].response,
          ...errorResponses({ ...REQUIRE_VERIFIED_USER_ERRORS, 400: 'The body is not valid' }),
        },
      },
    },
    async (request) => {
      const { readReceipts } = request.body;
      await setReadReceipts(app.database.db, currentUser(request).id, readReceipts);
      return {
        success: true as const,
        readReceipts,
        message: readReceipts
          ? 'Read receipts on: you and the other students see “Seen”'
          : 'Read receipts off: nobody sees when you read, and you see no “Seen”',
      };
    },
  );
}
