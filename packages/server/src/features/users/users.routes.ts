import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profileUpdateSchema } from '@campus-books/common/account.schemas';
import { forbidden, notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/sessions';
import { toCurrentUser, toSeller } from './current-user';
import { findUserById } from './users.repository';
import { deleteAccount, updateProfile } from './users.service';

const userIdParams = z.object({ id: z.uuid({ error: 'must be a user id' }) });

/** preValidation: only the signed-in owner of /:id, checked before the body is even read. */
async function ownerOnly(request: FastifyRequest) {
  const { id } = request.params as { id?: string };
  if (currentUser(request).id !== id) throw forbidden('You can only change your own account');
}

/** /api/user: profile update, account deletion, a seller's contact (docs/api/accounts.md). */
export default async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const rules = {
    schoolEmailDomain: app.config.schoolEmailDomain,
    groupmeLinkPrefix: app.config.groupmeLinkPrefix,
  };

  app.post(
    '/update/:id',
    {
      preValidation: [app.requireUser, ownerOnly],
      schema: { params: userIdParams, body: profileUpdateSchema(rules) },
    },
    async (request) => {
      const session = request.session!;
      const { user, message } = await updateProfile(
        app,
        session.user,
        session.sessionId,
        request.body,
      );
      return { success: true, message, ...toCurrentUser(user) };
    },
  );

  app.delete(
    '/delete/:id',
    { preValidation: [app.requireUser, ownerOnly], schema: { params: userIdParams } },
    async (request, reply) => {
      await deleteAccount(app, currentUser(request).id);
      await app.sessions.end(request, reply);
      return { success: true, message: 'Your account was deleted.' };
    },
  );

  app.get(
    '/get/:id',
    { preValidation: app.requireVerifiedUser, schema: { params: userIdParams } },
    async (request) => {
      const seller = await findUserById(app.database.db, request.params.id);
      if (!seller) throw notFound('No user found');
      return { success: true, ...toSeller(seller) };
    },
  );
}
