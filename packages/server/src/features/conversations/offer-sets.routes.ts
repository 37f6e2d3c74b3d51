import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { conversationLimits } from './conversation-limits';
import {
  getParticipantConversation,
  toEvent,
  type ConversationDeps,
} from './conversations.service';
import { listingBundleCandidates, offerFromListing } from './offer-from-listing';
import { bundleCandidates, setsOfEvents } from './offer-sets';

function depsOf(app: FastifyInstance): ConversationDeps {
  return { db: app.database.db, now: () => app.jobs.now(), config: app.config.conversations };
}

/**
 * /api/conversations/{id}/bundle-candidates: the seller's other listings a buyer may add to one
 * offer for several books (issue 44), those of the same course first; /api/conversations/offers:
 * such an offer made from a listing's page or the seller's profile, opening the conversation.
 */
export default async function offerSetsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = depsOf(app);
  // Messages and offers per account and minute; new conversations per account and hour.
  const { messageLimit, takeConversationOpen } = conversationLimits(app);

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

  app.post(
    '/offers',
    {
      preValidation: app.requireVerifiedUser,
      preHandler: messageLimit,
      schema: {
        body: apiRoutes['POST /api/conversations/offers'].body,
        response: {
          201: apiRoutes['POST /api/conversations/offers'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            400: 'The body is not valid, the offer is above the price of its books, or a listing of the set is unknown or not the seller’s (named)',
            403: 'E-mail not verified, your own listing, or a block',
            404: 'No such listing, or not visible',
            409: 'A listing of the offer is sold, expired, hidden or held (named), the other account was deleted, or the client id was used for something else',
            429: 'Too many messages this minute, or conversations this hour',
          }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const result = await offerFromListing(deps, user, request.body, () =>
        takeConversationOpen(reply, user.id),
      );
      const [listings] = await setsOfEvents(deps.db, result.conversation, [result.event]);
      return reply.status(201).send({
        success: true as const,
        conversationId: result.conversation.id,
        event: toEvent(result.event, result.conversation, listings),
      });
    },
  );
}

/**
 * /api/listing/{id}/bundle-candidates: the same list from a listing's page, before any
 * conversation (the listing stands for the conversation's).
 */
export async function listingBundleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = depsOf(app);
  app.get(
    '/:id/bundle-candidates',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['GET /api/listing/:id/bundle-candidates'].params,
        response: {
          200: apiRoutes['GET /api/listing/:id/bundle-candidates'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            403: 'E-mail not verified, or your own listing',
            404: 'No such listing, or not visible',
          }),
        },
      },
    },
    async (request) => ({
      listings: await listingBundleCandidates(deps, currentUser(request), request.params.id),
    }),
  );
}
