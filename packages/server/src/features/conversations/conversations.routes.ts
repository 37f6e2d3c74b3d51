import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiMessageSchema, errorResponses } from '@campus-books/common/api';
import {
  conversationListSchema,
  conversationSchema,
  offerSchema,
  readSchema,
  sendMessageSchema,
  sentEventSchema,
  soldToSchema,
  startConversationSchema,
  unreadCountSchema,
} from '@campus-books/common/conversation.schemas';
import { conversationReportSchema } from '@campus-books/common/moderation.schemas';
import { webPaths } from '@campus-books/common/paths';
import type { ConversationEventRow, ConversationRow } from '../../db/conversations.schema';
import { currentUser } from '../../plugins/sessions';
import { tooManyAttempts } from '../../plugins/rate-limit';
import { getOwnListing, markListingSold } from '../listings/listings.service';
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
import { setMessageMails } from './conversations.repository';
import { answerOffer, checkBuyerOfListing, makeOffer, releaseHold } from './offers.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idParams = z.object({ id: z.string() });
const offerParams = z.object({ id: z.string(), offerId: z.string() });
const listingParams = z.object({ listingId: z.string() });
const inboxQuery = z.strictObject(
  { listingId: z.string().regex(UUID, 'is not a listing id').optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a parameter' : undefined) },
);

const signedIn = { 401: 'Not signed in', 403: 'E-mail not verified' } as const;
const inConversation = { ...signedIn, 404: 'No such conversation, or not one of yours' } as const;
const sentErrors = errorResponses({
  ...inConversation,
  400: 'The body is not valid',
  403: 'E-mail not verified, or one of the two blocked the other',
  409: 'The other account was deleted',
  429: 'Too many messages this minute',
});
const offerErrors = errorResponses({
  ...inConversation,
  400: 'The body is not valid, or the offer is above the price',
  403: 'E-mail not verified, a block, or your own offer',
  404: 'No such conversation or offer',
  409: 'The listing is sold, expired, hidden, deleted or held for another buyer, or the offer was answered',
  429: 'Too many messages this minute',
});
const ownListingErrors = errorResponses({
  ...signedIn,
  400: 'The body is not valid, or the buyer did not write about this listing',
  403: 'Not verified, or not the seller of this listing',
  404: 'No such listing',
  409: 'The listing is not on hold, or is with the moderators',
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
  const { conversationsPerHour, messagesPerMinute } = app.config.conversations;
  // Messages and offers per account and minute; new conversations per account and hour.
  const messageLimit = app.limitAttempts({
    name: 'conversation-message:account',
    max: messagesPerMinute,
    windowMs: 60_000,
    keyOf: (request) => request.session?.user.id,
  });
  const sent = (result: { conversation: ConversationRow; event: ConversationEventRow }) => ({
    success: true as const,
    conversationId: result.conversation.id,
    event: toEvent(result.event, result.conversation),
  });

  app.get(
    '/',
    {
      ...verified,
      schema: {
        querystring: inboxQuery,
        response: {
          200: conversationListSchema,
          ...errorResponses({ ...signedIn, 400: 'A parameter is not valid' }),
        },
      },
    },
    async (request) => ({
      conversations: await listConversations(deps, currentUser(request), request.query.listingId),
    }),
  );

  // Whether the student is mailed about messages they have not read (on by default; the mails'
  // one-click unsubscribe turns it off, the profile back on).
  const mailsAnswer = z.object({
    messageMails: z.boolean().describe('Mails about messages not read in the app'),
  });
  app.get(
    '/mails',
    { ...verified, schema: { response: { 200: mailsAnswer, ...errorResponses(signedIn) } } },
    async (request) => ({ messageMails: currentUser(request).messageMails }),
  );
  app.post(
    '/mails',
    {
      ...verified,
      schema: {
        body: mailsAnswer,
        response: {
          200: mailsAnswer.extend({ success: z.literal(true), message: z.string() }),
          ...errorResponses({ ...signedIn, 400: 'The body is not valid' }),
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
    { ...verified, schema: { response: { 200: unreadCountSchema, ...errorResponses(signedIn) } } },
    async (request) => ({ count: await unreadCount(deps, currentUser(request)) }),
  );

  app.post(
    '/',
    {
      ...verified,
      preHandler: messageLimit,
      schema: {
        body: startConversationSchema,
        response: {
          201: sentEventSchema,
          ...sentErrors,
          ...errorResponses({
            403: 'E-mail not verified, your own listing, or a block',
            404: 'No such listing, or not visible',
            409: 'The listing is not for sale any more',
            429: 'Too many messages this minute, or conversations this hour',
          }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const result = await startConversation(deps, user, request.body, async () => {
        const hit = await app.limits.take(
          'conversation-open:account',
          user.id,
          conversationsPerHour,
          60 * 60_000,
        );
        if (!hit.allowed) throw tooManyAttempts(reply, hit);
      });
      return reply.status(201).send(sent(result));
    },
  );

  app.get(
    '/:id',
    {
      ...verified,
      schema: {
        params: idParams,
        response: { 200: conversationSchema, ...errorResponses(inConversation) },
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
        params: idParams,
        body: sendMessageSchema,
        response: { 201: sentEventSchema, ...sentErrors },
      },
    },
    async (request, reply) => {
      const result = await sendMessage(
        deps,
        currentUser(request),
        request.params.id,
        request.body.text,
      );
      return reply.status(201).send(sent(result));
    },
  );

  app.post(
    '/:id/read',
    {
      ...verified,
      schema: {
        params: idParams,
        body: readSchema,
        response: {
          200: apiMessageSchema,
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
        params: idParams,
        body: conversationReportSchema,
        response: {
          201: apiMessageSchema,
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
      for (const to of app.config.trust.moderatorEmails) {
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
        params: idParams,
        body: offerSchema,
        response: { 201: sentEventSchema, ...offerErrors },
      },
    },
    async (request, reply) => {
      const result = await makeOffer(
        deps,
        currentUser(request),
        request.params.id,
        request.body.amount,
      );
      return reply.status(201).send(sent(result));
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
        schema: { params: offerParams, response: { 200: sentEventSchema, ...offerErrors } },
      },
      async (request) =>
        sent(
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
      schema: { params: listingParams, response: { 200: apiMessageSchema, ...ownListingErrors } },
    },
    async (request) => {
      const listing = await getOwnListing(app, currentUser(request), request.params.listingId);
      await releaseHold(deps, listing);
      return { success: true as const, message: 'The hold is released' };
    },
  );

  app.post(
    '/listing/:listingId/sold',
    {
      ...verified,
      schema: {
        params: listingParams,
        body: soldToSchema,
        response: { 200: apiMessageSchema, ...ownListingErrors },
      },
    },
    async (request) => {
      const listing = await getOwnListing(app, currentUser(request), request.params.listingId);
      await checkBuyerOfListing(deps, listing, request.body.buyerId);
      await markListingSold(app, listing, request.body.buyerId);
      return { success: true as const, message: 'Listing marked as sold' };
    },
  );
}
