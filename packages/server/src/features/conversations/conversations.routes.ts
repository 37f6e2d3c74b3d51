import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { webPaths } from '@campus-books/common/paths';
import type { ConversationEventRow, ConversationRow } from '../../db/conversations.schema';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { conversationLimits } from './conversation-limits';
import { setMessageMails } from '../accounts/users.repository';
import { getOwnListing } from '../listings/listings.service';
import {
  getConversation,
  listConversations,
  readConversation,
  sendMessage,
  startConversation,
  toEvent,
  unreadCount,
  type ConversationDeps,
} from './conversations.service';
import { reportConversation } from './conversation-reports.service';
import { setsOfEvents } from './offer-sets';
import { moderatorsToMail } from '../moderation/moderators';
import {
  answerOffer,
  checkBuyerOfListing,
  makeOffer,
  releaseHold,
  sellListing,
} from './offers.service';

const inConversation = {
  ...REQUIRE_VERIFIED_USER_ERRORS,
  404: 'No such conversation, or not one of yours',
} as const;
const sentErrors = errorResponses({
  ...inConversation,
  400: 'The body is not valid, or a photo is unknown',
  403: 'E-mail not verified, one of the two blocked the other, or a photo is not yours',
  409: 'The other account was deleted, or a photo is being processed or already attached',
  429: 'Too many messages this minute',
});
const offerErrors = errorResponses({
  ...inConversation,
  400: 'The body is not valid, the offer is above the price (of the set), or a listing of the set is unknown or not the seller’s (named)',
  403: 'E-mail not verified, a block, or your own offer',
  404: 'No such conversation or offer',
  409: 'A listing of the offer is sold, expired, hidden, deleted or held for another buyer (named), or the offer was answered',
  429: 'Too many messages this minute',
});
const ownListingErrors = errorResponses({
  ...REQUIRE_VERIFIED_USER_ERRORS,
  400: 'The body is not valid, or the buyer did not write about this listing',
  403: 'Not verified, or not the seller of this listing',
  404: 'No such listing',
  409: 'The listing is not on hold, or it (or a book held with it) is with the moderators',
});

/** /api/conversations: a buyer's conversations with sellers, their messages, offers and holds. */
export default async function conversationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };
  const deps: ConversationDeps = {
    db: app.database.db,
    now: () => app.jobs.now(),
    config: app.config.conversations,
  };
  // Messages and offers per account and minute; new conversations per account and hour.
  const { messageLimit, takeConversationOpen } = conversationLimits(app);
  const sent = async (result: { conversation: ConversationRow; event: ConversationEventRow }) => ({
    success: true as const,
    conversationId: result.conversation.id,
    event: toEvent(
      result.event,
      result.conversation,
      (await setsOfEvents(app.database.db, result.conversation, [result.event]))[0],
    ),
  });

  app.get(
    '/',
    {
      ...verified,
      schema: {
        querystring: apiRoutes['GET /api/conversations'].query,
        response: {
          200: apiRoutes['GET /api/conversations'].response,
          ...errorResponses({ ...REQUIRE_VERIFIED_USER_ERRORS, 400: 'A parameter is not valid' }),
        },
      },
    },
    async (request) => ({
      conversations: await listConversations(deps, currentUser(request), request.query.listingId),
    }),
  );

  // Whether the student is mailed about messages they have not read (on by default; the mails'
  // one-click unsubscribe turns it off, the profile back on).
  app.get(
    '/mails',
    {
      ...verified,
      schema: {
        response: {
          200: apiRoutes['GET /api/conversations/mails'].response,
          ...errorResponses(REQUIRE_VERIFIED_USER_ERRORS),
        },
      },
    },
    async (request) => ({ messageMails: currentUser(request).messageMails }),
  );
  app.post(
    '/mails',
    {
      ...verified,
      schema: {
        body: apiRoutes['POST /api/conversations/mails'].body,
        response: {
          200: apiRoutes['POST /api/conversations/mails'].response,
          ...errorResponses({ ...REQUIRE_VERIFIED_USER_ERRORS, 400: 'The body is not valid' }),
        },
      },
    },
    async (request) => {
      const { messageMails } = request.body;
      await setMessageMails(app.database.db, currentUser(request).id, messageMails);
      return {
        success: true as const,
        messageMails,
        message: messageMails
          ? 'We will mail you about messages you have not read'
          : 'No more mails about messages',
      };
    },
  );

  app.get(
    '/unread',
    {
      ...verified,
      schema: {
        response: {
          200: apiRoutes['GET /api/conversations/unread'].response,
          ...errorResponses(REQUIRE_VERIFIED_USER_ERRORS),
        },
      },
    },
    async (request) => ({ count: await unreadCount(deps, currentUser(request)) }),
  );

  app.post(
    '/',
    {
      ...verified,
      preHandler: messageLimit,
      schema: {
        body: apiRoutes['POST /api/conversations'].body,
        response: {
          201: apiRoutes['POST /api/conversations'].response,
          ...sentErrors,
          ...errorResponses({
            403: 'E-mail not verified, your own listing, a block, or a photo is not yours',
            404: 'No such listing, or not visible',
            409: 'The listing is not for sale any more, or a photo is being processed or already attached',
            429: 'Too many messages this minute, or conversations this hour',
          }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const result = await startConversation(deps, user, request.body, () =>
        takeConversationOpen(reply, user.id),
      );
      return reply.status(201).send(await sent(result));
    },
  );

  app.get(
    '/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['GET /api/conversations/:id'].params,
        response: {
          200: apiRoutes['GET /api/conversations/:id'].response,
          ...errorResponses(inConversation),
        },
      },
    },
    async (request) => getConversation(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/:id/messages',
    {
      ...verified,
      preHandler: messageLimit,
      schema: {
        params: apiRoutes['POST /api/conversations/:id/messages'].params,
        body: apiRoutes['POST /api/conversations/:id/messages'].body,
        response: {
          201: apiRoutes['POST /api/conversations/:id/messages'].response,
          ...sentErrors,
        },
      },
    },
    async (request, reply) => {
      const result = await sendMessage(deps, currentUser(request), request.params.id, request.body);
      return reply.status(201).send(await sent(result));
    },
  );

  app.post(
    '/:id/read',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/conversations/:id/read'].params,
        body: apiRoutes['POST /api/conversations/:id/read'].body,
        response: {
          200: apiRoutes['POST /api/conversations/:id/read'].response,
          ...errorResponses({ ...inConversation, 400: 'The body is not valid' }),
        },
      },
    },
    async (request) => {
      await readConversation(deps, currentUser(request), request.params.id, request.body.upTo);
      return { success: true as const, message: 'Marked as read' };
    },
  );

  app.post(
    '/:id/report',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/conversations/:id/report'].params,
        body: apiRoutes['POST /api/conversations/:id/report'].body,
        response: {
          201: apiRoutes['POST /api/conversations/:id/report'].response,
          ...errorResponses({
            ...inConversation,
            400: 'The body is not valid',
            409: 'Already reported by you',
          }),
        },
      },
    },
    async (request, reply) => {
      const { listingName } = await reportConversation(
        deps,
        currentUser(request),
        request.params.id,
        request.body,
      );
      for (const to of await moderatorsToMail(app)) {
        app.mailer.sendInBackground({
          to,
          subject: `A conversation about "${listingName}" was reported`,
          text: [
            `A student reported their conversation about "${listingName}".`,
            'You can read it in the moderation queue while the report is open; each read is logged.',
            '',
            `${app.config.publicUrl}${webPaths.moderation.href()}`,
          ].join('\n'),
        });
      }
      return reply
        .status(201)
        .send({ success: true as const, message: 'Thanks: the campus moderators will look at it' });
    },
  );

  app.post(
    '/:id/offers',
    {
      ...verified,
      preHandler: messageLimit,
      schema: {
        params: apiRoutes['POST /api/conversations/:id/offers'].params,
        body: apiRoutes['POST /api/conversations/:id/offers'].body,
        response: { 201: apiRoutes['POST /api/conversations/:id/offers'].response, ...offerErrors },
      },
    },
    async (request, reply) => {
      const result = await makeOffer(deps, currentUser(request), request.params.id, request.body);
      return reply.status(201).send(await sent(result));
    },
  );

  for (const [path, answer] of [
    ['accept', 'accepted'],
    ['decline', 'declined'],
  ] as const) {
    app.post(
      `/:id/offers/:offerId/${path}`,
      {
        ...verified,
        schema: {
          params: apiRoutes[`POST /api/conversations/:id/offers/:offerId/${path}`].params,
          response: {
            200: apiRoutes[`POST /api/conversations/:id/offers/:offerId/${path}`].response,
            ...offerErrors,
          },
        },
      },
      async (request) =>
        await sent(
          await answerOffer(
            deps,
            currentUser(request),
            request.params.id,
            request.params.offerId,
            answer,
          ),
        ),
    );
  }

  app.post(
    '/listing/:listingId/release',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/conversations/listing/:listingId/release'].params,
        response: {
          200: apiRoutes['POST /api/conversations/listing/:listingId/release'].response,
          ...ownListingErrors,
        },
      },
    },
    async (request) => {
      const listing = await getOwnListing(
        { db: app.database.db },
        currentUser(request),
        request.params.listingId,
      );
      await releaseHold(deps, listing);
      return { success: true as const, message: 'The hold is released' };
    },
  );

  app.post(
    '/listing/:listingId/sold',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/conversations/listing/:listingId/sold'].params,
        body: apiRoutes['POST /api/conversations/listing/:listingId/sold'].body,
        response: {
          200: apiRoutes['POST /api/conversations/listing/:listingId/sold'].response,
          ...ownListingErrors,
        },
      },
    },
    async (request) => {
      const listing = await getOwnListing(
        { db: app.database.db },
        currentUser(request),
        request.params.listingId,
      );
      await checkBuyerOfListing(deps, listing, request.body.buyerId);
      await sellListing({ ...deps, jobs: app.jobs }, listing, request.body.buyerId);
      return { success: true as const, message: 'Listing marked as sold' };
    },
  );
}
