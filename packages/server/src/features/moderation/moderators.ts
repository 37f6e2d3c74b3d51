import { and, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentCampusWork } from '../../campuses/campus-context';
import type { TrustConfig } from '../../config/config';
import { users, type UserRow } from '../../db/schema';
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
 * Whom to mail about a report: MODERATOR_EMAILS, the installation's list. In a many-campus
 * installation (decision 024) only the addresses that are verified accounts of the request's
 * campus, so a report on one campus (a listing's title, a conversation's) never reaches another
 * campus's moderators. A single campus mails the whole list, accounts or not, as before.
 */
export async function moderatorsToMail(app: FastifyInstance): Promise<string[]> {
  const emails = app.config.trust.moderatorEmails;
  if (!currentCampusWork() || emails.length === 0) return emails;
  const accounts = await app.database.db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.email, emails), isNotNull(users.emailVerifiedAt)));
  const ofCampus = new Set(accounts.map((a) => a.email));
  return emails.filter((email) => ofCampus.has(email));
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
