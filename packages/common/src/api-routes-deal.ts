import { z } from 'zod';
import { apiMessageSchema } from './api';
import { idParams, inboxQuery, listingParams, offerParams, userParams } from './api-params';
import {
  blockListSchema,
  conversationListSchema,
  conversationSchema,
  offerFromListingSchema,
  offerSchema,
  readReceiptsSchema,
  readSchema,
  sendMessageSchema,
  sentEventSchema,
  soldToSchema,
  startConversationSchema,
  unreadCountSchema,
} from './conversation.schemas';
import {
  meetupAnswerSchema,
  meetupListQuerySchema,
  meetupListSchema,
  suggestMeetupSchema,
} from './meetup.schemas';
import { conversationReportSchema } from './moderation.schemas';
import { bundleCandidatesSchema } from './offer-sets';
import {
  exchangeListSchema,
  exchangeSchema,
  publicProfileSchema,
  rateExchangeSchema,
  ratedSchema,
  removeRatingSchema,
  reportedRatingListSchema,
  reportRatingSchema,
} from './rating.schemas';

/** What one route of the API takes and answers: the server declares it, the web app calls it. */
import type { ApiRouteContract } from './api-route-contract';

const messageMails = z.object({
  messageMails: z.boolean().describe('Mails about messages not read in the app'),
});

/**
 * The API's routes the web app calls, keyed by `METHOD /path` (`:name` for a path parameter): the
 * schemas of what each takes and answers. The server's routes declare these very schemas (and so the
 * OpenAPI document), and the web app's `apiCall` types its requests and answers from them, so a
 * changed answer fails the web app's build. `api-routes.test.ts` (server) holds the table to the
 * app's registered routes.
 */
/**
 * The deal's routes of the route table (api-routes.ts): conversations and blocks, ratings and
 * profiles, meetups. A file of their own so that the table stays readable.
 */
export const dealRoutes = {
  // Conversations, blocks
  'GET /api/conversations': { query: inboxQuery, response: conversationListSchema },
  'GET /api/conversations/mails': { response: messageMails },
  'POST /api/conversations/mails': {
    body: messageMails,
    response: messageMails.extend({ success: z.literal(true), message: z.string() }),
  },
  'GET /api/conversations/receipts': { response: readReceiptsSchema },
  'POST /api/conversations/receipts': {
    body: readReceiptsSchema,
    response: readReceiptsSchema.extend({ success: z.literal(true), message: z.string() }),
  },
  'GET /api/conversations/unread': { response: unreadCountSchema },
  'POST /api/conversations': { body: startConversationSchema, response: sentEventSchema },
  'GET /api/conversations/:id': { params: idParams, response: conversationSchema },
  'POST /api/conversations/:id/messages': {
    params: idParams,
    body: sendMessageSchema,
    response: sentEventSchema,
  },
  'POST /api/conversations/:id/read': {
    params: idParams,
    body: readSchema,
    response: apiMessageSchema,
  },
  'POST /api/conversations/:id/report': {
    params: idParams,
    body: conversationReportSchema,
    response: apiMessageSchema,
  },
  'GET /api/conversations/:id/bundle-candidates': {
    params: idParams,
    response: bundleCandidatesSchema,
  },
  'POST /api/conversations/offers': { body: offerFromListingSchema, response: sentEventSchema },
  'GET /api/listing/:id/bundle-candidates': { params: idParams, response: bundleCandidatesSchema },
  'POST /api/conversations/:id/offers': {
    params: idParams,
    body: offerSchema,
    response: sentEventSchema,
  },
  'POST /api/conversations/:id/offers/:offerId/accept': {
    params: offerParams,
    response: sentEventSchema,
  },
  'POST /api/conversations/:id/offers/:offerId/decline': {
    params: offerParams,
    response: sentEventSchema,
  },
  'POST /api/conversations/listing/:listingId/release': {
    params: listingParams,
    response: apiMessageSchema,
  },
  'POST /api/conversations/listing/:listingId/sold': {
    params: listingParams,
    body: soldToSchema,
    response: apiMessageSchema,
  },
  'GET /api/blocks': { response: blockListSchema },
  'POST /api/blocks/:userId': { params: userParams, response: apiMessageSchema },
  'DELETE /api/blocks/:userId': { params: userParams, response: apiMessageSchema },
  // Ratings and profiles
  'GET /api/ratings/exchanges': { response: exchangeListSchema },
  'GET /api/ratings/exchanges/:id': { params: idParams, response: exchangeSchema },
  'POST /api/ratings/exchanges/:id': {
    params: idParams,
    body: rateExchangeSchema,
    response: ratedSchema,
  },
  'POST /api/ratings/:id/report': {
    params: idParams,
    body: reportRatingSchema,
    response: apiMessageSchema,
  },
  'GET /api/ratings/reported': { response: reportedRatingListSchema },
  'POST /api/ratings/:id/remove': {
    params: idParams,
    body: removeRatingSchema,
    response: apiMessageSchema,
  },
  'POST /api/ratings/:id/dismiss': {
    params: idParams,
    body: removeRatingSchema,
    response: apiMessageSchema,
  },
  'GET /api/profiles/:id': { params: idParams, response: publicProfileSchema },
  // Meetups
  'GET /api/meetups': { query: meetupListQuerySchema, response: meetupListSchema },
  'POST /api/meetups': { body: suggestMeetupSchema, response: meetupAnswerSchema },
  'POST /api/meetups/:id/accept': { params: idParams, response: meetupAnswerSchema },
  'POST /api/meetups/:id/decline': { params: idParams, response: meetupAnswerSchema },
} as const satisfies Record<
  `${'GET' | 'POST' | 'PUT' | 'DELETE'} /api/${string}`,
  ApiRouteContract
>;
