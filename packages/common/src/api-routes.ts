import { z } from 'zod';
import { apiMessageSchema } from './api';
import {
  alertInputSchema,
  alertSchema,
  demandQuerySchema,
  wantedCourseSchema,
} from './alert.schemas';
import {
  blockListSchema,
  conversationListSchema,
  conversationSchema,
  offerSchema,
  readSchema,
  sendMessageSchema,
  sentEventSchema,
  soldToSchema,
  startConversationSchema,
  unreadCountSchema,
} from './conversation.schemas';
import {
  listingCreateSchema,
  listingSchema,
  listingSearchSchema,
  listingUpdateSchema,
} from './listing.schemas';
import {
  meetupAnswerSchema,
  meetupListQuerySchema,
  meetupListSchema,
  suggestMeetupSchema,
} from './meetup.schemas';
import { conversationReportSchema } from './moderation.schemas';
import {
  addCoursesAnswerSchema,
  addCoursesBodySchema,
  calendarAnswerSchema,
  calendarBodySchema,
  courseBooksAnswerSchema,
  courseBooksQuerySchema,
  courseSuggestQuerySchema,
  myCoursesAnswerSchema,
  notifyAnswerSchema,
  notifyBodySchema,
  removeCourseBodySchema,
} from './my-courses.schemas';
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
import {
  draftPublishAnswerSchema,
  draftPublishSchema,
  draftSaveSchema,
  draftSchema,
  termEndMailSchema,
} from './shelf.schemas';

/** What one route of the API takes and answers: the server declares it, the web app calls it. */
export interface ApiRouteContract {
  /** The path's `:name` parameters. */
  params?: z.ZodType;
  /** The query string. */
  query?: z.ZodType;
  /** The JSON body. */
  body?: z.ZodType;
  /** The success answer (every 2xx the route declares answers this shape). */
  response: z.ZodType;
}

const idParams = z.object({ id: z.string() });
const listingParams = z.object({ listingId: z.string() });
const userParams = z.object({ userId: z.string() });
const offerParams = z.object({ id: z.string(), offerId: z.string() });
const withMessage = <Schema extends z.ZodObject>(schema: Schema) =>
  schema.extend({ success: z.literal(true), message: z.string() });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const inboxQuery = z.strictObject(
  { listingId: z.string().regex(UUID, 'is not a listing id').optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a parameter' : undefined) },
);

const savedListingAnswer = listingSchema.extend({ success: z.literal(true) });
const savedAnswer = z.object({ success: z.literal(true), saved: z.boolean(), message: z.string() });
const savedListingMails = z.object({
  savedListingMails: z.boolean().describe('Mails about saved listings (price drops, sales)'),
});
const messageMails = z.object({
  messageMails: z.boolean().describe('Mails about messages not read in the app'),
});
const termEndMailAnswer = z.object({ success: z.literal(true), ...termEndMailSchema.shape });
const alertAnswer = alertSchema.extend({ success: z.literal(true) });

/**
 * The API's routes the web app calls, keyed by `METHOD /path` (`:name` for a path parameter): the
 * schemas of what each takes and answers. The server's routes declare these very schemas (and so the
 * OpenAPI document), and the web app's `apiCall` types its requests and answers from them, so a
 * changed answer fails the web app's build. `api-routes.test.ts` (server) holds the table to the
 * app's registered routes.
 */
export const apiRoutes = {
  // Alerts
  'GET /api/alerts/get': { response: z.array(alertSchema) },
  'POST /api/alerts/create': { body: alertInputSchema, response: alertAnswer },
  'POST /api/alerts/update/:id': {
    params: idParams,
    body: alertInputSchema,
    response: alertAnswer.extend({ message: z.string() }),
  },
  'DELETE /api/alerts/delete/:id': { params: idParams, response: apiMessageSchema },
  'GET /api/alerts/demand': {
    query: demandQuerySchema,
    response: z.object({
      success: z.literal(true),
      students: z.number().int().describe('Students with a matching alert'),
    }),
  },
  'GET /api/alerts/most-wanted': {
    response: z.object({ success: z.literal(true), courses: z.array(wantedCourseSchema) }),
  },

  'POST /api/alerts/unsubscribe': {
    query: z.object({ token: z.string().max(2000).optional() }),
    body: z
      .object({ token: z.string().max(2000).optional(), confirm: z.string().optional() })
      .loose()
      .optional(),
    response: apiMessageSchema,
  },

  // Listings
  'GET /api/listing/get': { query: listingSearchSchema, response: z.array(listingSchema) },
  'GET /api/listing/get/:id': { params: idParams, response: listingSchema },
  'POST /api/listing/create': { body: listingCreateSchema, response: savedListingAnswer },
  'POST /api/listing/update/:id': {
    params: idParams,
    body: listingUpdateSchema,
    response: savedListingAnswer.extend({ message: z.string() }),
  },
  'POST /api/listing/mark-as-sold/:id': { params: idParams, response: apiMessageSchema },
  'POST /api/listing/relist/:id': { params: idParams, response: apiMessageSchema },
  'DELETE /api/listing/delete/:id': { params: idParams, response: apiMessageSchema },
  'POST /api/listing/request-review/:id': { params: idParams, response: apiMessageSchema },

  // Saved listings
  'GET /api/saved/get': { response: z.array(listingSchema) },
  'POST /api/saved/add/:id': { params: idParams, response: savedAnswer },
  'DELETE /api/saved/remove/:id': { params: idParams, response: savedAnswer },
  'GET /api/saved/mails': { response: savedListingMails },
  'POST /api/saved/mails': { body: savedListingMails, response: withMessage(savedListingMails) },

  // Conversations, blocks
  'GET /api/conversations': { query: inboxQuery, response: conversationListSchema },
  'GET /api/conversations/mails': { response: messageMails },
  'POST /api/conversations/mails': { body: messageMails, response: withMessage(messageMails) },
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

  // My courses
  'GET /api/my-courses/get': { response: myCoursesAnswerSchema },
  'POST /api/my-courses/add': { body: addCoursesBodySchema, response: addCoursesAnswerSchema },
  'POST /api/my-courses/remove': { body: removeCourseBodySchema, response: myCoursesAnswerSchema },
  'POST /api/my-courses/calendar': { body: calendarBodySchema, response: calendarAnswerSchema },
  'GET /api/my-courses/books': { query: courseBooksQuerySchema, response: courseBooksAnswerSchema },
  'POST /api/my-courses/notify': { body: notifyBodySchema, response: notifyAnswerSchema },
  'GET /api/my-courses/suggest': {
    query: courseSuggestQuerySchema,
    response: z.object({ success: z.literal(true), courses: z.array(z.string()) }),
  },

  // The shelf: drafts and the end-of-term mail
  'GET /api/drafts': { response: z.object({ drafts: z.array(draftSchema) }) },
  'PUT /api/drafts/:id': { params: idParams, body: draftSaveSchema, response: draftSchema },
  'DELETE /api/drafts/:id': { params: idParams, response: apiMessageSchema },
  'POST /api/drafts/publish': { body: draftPublishSchema, response: draftPublishAnswerSchema },
  'GET /api/term-end-mail': { response: termEndMailAnswer },
  'PUT /api/term-end-mail': { body: termEndMailSchema, response: termEndMailAnswer },
} as const satisfies Record<
  `${'GET' | 'POST' | 'PUT' | 'DELETE'} /api/${string}`,
  ApiRouteContract
>;

export type ApiRoutes = typeof apiRoutes;
/** A route of the table: `METHOD /path`. */
export type ApiRouteKey = keyof ApiRoutes;
