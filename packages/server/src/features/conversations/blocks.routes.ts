import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { badRequest, notFound } from '../../lib/errors';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { deleteBlock, findBlocked, insertBlock, userExists } from './blocks.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const blockErrors = errorResponses({
  400: 'Not a student id, or your own',
  ...REQUIRE_VERIFIED_USER_ERRORS,
  404: 'No such student',
});

/**
 * /api/blocks: a student blocks another; neither can then open or write in a conversation with the
 * other (existing ones become read-only for both). (User ids are public: each listing names its
 * seller's, so a 404 for an unknown one reveals nothing new.)
 */
export default async function blocksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };
  const target = async (blockerId: string, userId: string) => {
    if (!UUID.test(userId) || userId === blockerId) throw badRequest('Choose another student');
    if (!(await userExists(app.database.db, userId))) throw notFound('No such student');
    return userId;
  };

  app.get(
    '/',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/blocks'].response, ...blockErrors } },
    },
    async (request) => ({
      blocked: (await findBlocked(app.database.db, currentUser(request).id)).map((row) => ({
        id: row.id,
        username: row.username,
        blockedAt: new Date(row.created_at).toISOString(),
      })),
    }),
  );

  app.post(
    '/:userId',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/blocks/:userId'].params,
        response: { 200: apiRoutes['POST /api/blocks/:userId'].response, ...blockErrors },
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      await insertBlock(app.database.db, me, await target(me, request.params.userId));
      return { success: true as const, message: 'Blocked' };
    },
  );

  app.delete(
    '/:userId',
    {
      ...verified,
      schema: {
        params: apiRoutes['DELETE /api/blocks/:userId'].params,
        response: { 200: apiRoutes['DELETE /api/blocks/:userId'].response, ...blockErrors },
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      await deleteBlock(app.database.db, me, await target(me, request.params.userId));
      return { success: true as const, message: 'Unblocked' };
    },
  );
}
