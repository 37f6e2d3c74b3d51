import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { profileUpdateNeedsPassword } from '@campus-books/common/account.schemas';
import { apiRoutes } from '@campus-books/common/api-routes';
import { errorResponses } from '@campus-books/common/api';
import { MESSAGES } from '@campus-books/common/messages';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { byEmail } from '../../plugins/rate-limit';
import {
  currentUser,
  REQUIRE_USER_ERRORS,
  REQUIRE_VERIFIED_USER_ERRORS,
} from '../../plugins/sessions';
import { verifyPassword } from './password';
import { toListing } from '../listings/listing.serializer';
import { listSellerListings } from '../listings/listings.service';
import { toCurrentUser, toSeller } from './current-user';
import { findUserById } from './users.repository';
import { deleteAccount, updateProfile } from './user.service';

const ownAccountErrors = errorResponses({
  400: 'The body is not valid, or the current password is wrong',
  ...REQUIRE_USER_ERRORS,
  403: 'Not this account',
  429: 'Too many wrong passwords or e-mail changes',
});

/** preValidation: only the signed-in owner of /:id, checked before the body is even read. */
async function ownerOnly(request: FastifyRequest) {
  const { id } = request.params as { id?: string };
  if (currentUser(request).id !== id) throw forbidden('You can only change your own account');
}

/** Whether this request changes the e-mail or password, or deletes the account. */
function needsCurrentPassword(request: FastifyRequest): boolean {
  if (request.method === 'DELETE') return true;
  return profileUpdateNeedsPassword((request.body ?? {}) as { email?: unknown });
}

/** preHandler: 400 unless `currentPassword` in the body is the signed-in user's password. */
async function checkCurrentPassword(request: FastifyRequest) {
  if (!needsCurrentPassword(request)) return;
  const { currentPassword } = request.body as { currentPassword?: string };
  const ok = await verifyPassword(currentUser(request).passwordHash, currentPassword ?? '');
  if (!ok) {
    throw new AppError(400, MESSAGES.currentPasswordWrong, [
      { field: 'currentPassword', message: MESSAGES.currentPasswordWrong },
    ]);
  }
}

/**
 * /api/user: profile update, account deletion, a seller's contact (docs/api/accounts.md), and the
 * signed-in seller's own listings.
 */
export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Read per request (getters): a many-campus installation's requests are each their campus's.
  const rules = {
    get schoolEmailDomain() {
      return app.config.schoolEmailDomain;
    },
    get groupmeLinkPrefix() {
      return app.config.groupmeLinkPrefix;
    },
    // Consortium sharing: a partner campus's student keeps an address of their own school.
    get partnerEmailDomains() {
      return app.consortium.partnerEmailDomains();
    },
  };
  const limits = app.config.rateLimits;
  const userIdOf = (request: FastifyRequest) => request.session?.user.id;
  // Guesses of the current password count per account, like sign-in's.
  const passwordGuesses = app.limitAttempts({
    name: 'reauth:account',
    max: limits.signInPerAccount,
    keyOf: (request) => (needsCurrentPassword(request) ? userIdOf(request) : undefined),
  });
  // An e-mail change mails the new address: limited per address and per account like the
  // other mail routes, so it cannot be aimed at a stranger's inbox.
  const emailChangesOf = (request: FastifyRequest) =>
    byEmail(request) === undefined ? undefined : userIdOf(request);
  const emailChangeLimits = [
    app.limitAttempts({ name: 'email-change:email', max: limits.mailPerAddress, keyOf: byEmail }),
    app.limitAttempts({
      name: 'email-change:account',
      max: limits.mailPerAddress,
      keyOf: emailChangesOf,
    }),
  ];

  app.post(
    '/update/:id',
    {
      preValidation: [app.requireUser, ownerOnly],
      schema: {
        params: apiRoutes['POST /api/user/update/:id'].params,
        body: apiRoutes['POST /api/user/update/:id'].body(rules),
        response: {
          200: apiRoutes['POST /api/user/update/:id'].response,
          ...ownAccountErrors,
        },
      },
      preHandler: [passwordGuesses, checkCurrentPassword, ...emailChangeLimits],
    },
    async (request) => {
      const session = request.session!;
      const { user, message } = await updateProfile(
        app,
        session.user,
        session.sessionId,
        request.body,
      );
      return { success: true as const, message, ...toCurrentUser(user) };
    },
  );

  app.delete(
    '/delete/:id',
    {
      preValidation: [app.requireUser, ownerOnly],
      schema: {
        params: apiRoutes['DELETE /api/user/delete/:id'].params,
        body: apiRoutes['DELETE /api/user/delete/:id'].body,
        response: { 200: apiRoutes['DELETE /api/user/delete/:id'].response, ...ownAccountErrors },
      },
      preHandler: [passwordGuesses, checkCurrentPassword],
    },
    async (request, reply) => {
      await deleteAccount(app, currentUser(request).id);
      await app.sessions.end(request, reply);
      return { success: true as const, message: 'Your account was deleted.' };
    },
  );

  app.get(
    '/get/:id',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['GET /api/user/get/:id'].params,
        response: {
          200: apiRoutes['GET /api/user/get/:id'].response,
          ...errorResponses({
            400: 'Not a user id',
            ...REQUIRE_VERIFIED_USER_ERRORS,
            404: 'No such user',
          }),
        },
      },
    },
    async (request) => {
      const seller = await findUserById(app.database.db, request.params.id);
      if (!seller) throw notFound('No user found');
      return { success: true as const, ...toSeller(seller) };
    },
  );

  // The signed-in seller's own listings, active and sold, newest first.
  app.get(
    '/listings/:id',
    {
      preValidation: app.requireUser,
      schema: {
        params: apiRoutes['GET /api/user/listings/:id'].params,
        response: {
          200: apiRoutes['GET /api/user/listings/:id'].response,
          ...errorResponses({ ...REQUIRE_USER_ERRORS, 403: "Another seller's listings" }),
        },
      },
    },
    async (request) => {
      const rows = await listSellerListings(
        { db: app.database.db },
        currentUser(request),
        request.params.id,
      );
      return rows.map(toListing);
    },
  );
}
