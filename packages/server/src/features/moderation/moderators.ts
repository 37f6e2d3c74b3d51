import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TrustConfig } from '../../config/config';
import type { UserRow } from '../../db/schema';
import { forbidden, unauthorized } from '../../lib/errors';
import { NOT_A_MODERATOR } from './moderation.messages';

/** Whether the campus named this account a moderator (MODERATOR_EMAILS; verified accounts only). */
export function isModerator(
  { moderatorEmails }: Pick<TrustConfig, 'moderatorEmails'>,
  user: UserRow,
): boolean {
  return user.emailVerifiedAt !== null && moderatorEmails.includes(user.email);
}

/**
 * Hooks of every /api/moderation route: 401 signed out (before the body is read), then, after the
 * body's validation as on the listing routes' owner check, 403 for anyone but a moderator.
 */
export function moderatorHooks(app: FastifyInstance) {
  return {
    preValidation: async (request: FastifyRequest) => {
      if (!(await app.sessions.read(request))) throw unauthorized();
    },
    preHandler: async (request: FastifyRequest) => {
      const current = await app.sessions.read(request);
      if (!current) throw unauthorized();
      if (!isModerator(app.config.trust, current.user)) throw forbidden(NOT_A_MODERATOR);
    },
  };
}
