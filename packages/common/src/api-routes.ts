import { z } from 'zod';
import {
  challengeField,
  currentUserSchema,
  deleteAccountSchema,
  emailOnlySchema,
  newAccountGroupmeLinkSchema,
  profileUpdateSchema,
  resetPasswordSchema,
  sellerSchema,
  signInSchema,
  signUpSchema,
  type AccountRules,
} from './account.schemas';
import { apiMessageSchema, publicConfigSchema, succeeded } from './api';
import { campusConfigSchema } from './campus-config';
import { searchedListingSchema } from './consortium-listing';
import { dealRoutes } from './api-routes-deal';
import type { ApiRouteContract } from './api-route-contract';

export type { ApiRouteContract } from './api-route-contract';
import {
  courseParams,
  idParams,
  isbnParams,
  listingParams,
  userIdParams,
  userParams,
} from './api-params';
import { bookLookupAnswerSchema, courseAnswerSchema, priceSummarySchema } from './book.schemas';
import {
  alertInputSchema,
  alertSchema,
  demandQuerySchema,
  wantedCourseSchema,
} from './alert.schemas';
import {
  LISTING_LINK_ACTIONS,
  listingCreateSchema,
  listingSchema,
  listingSearchSchema,
  listingUpdateSchema,
} from './listing.schemas';
import {
  moderationLogEntrySchema,
  moderationQueueItemSchema,
  moderationReasonSchema,
  reportedConversationListSchema,
  reportedConversationThreadSchema,
  reportSchema,
} from './moderation.schemas';
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
import { privacySettingsSchema } from './privacy';
import {
  pushPublicKeySchema,
  pushSubscriptionInputSchema,
  pushSubscriptionListSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from './push.schemas';
import {
  draftPublishAnswerSchema,
  draftPublishSchema,
  draftSaveSchema,
  draftSchema,
  termEndMailSchema,
} from './shelf.schemas';
import {
  notificationSettingsAnswerSchema,
  notificationSettingsSavedSchema,
  notificationSettingsSchema,
} from './notification.schemas';
import { operatorStatisticsSchema, statisticsQuerySchema } from './statistics.schemas';

const signedInAnswer = currentUserSchema.extend({ success: z.literal(true) });
const signOnName = z.string().trim().min(1).max(50);

const savedListingAnswer = listingSchema.extend({ success: z.literal(true) });
const savedAnswer = z.object({ success: z.literal(true), saved: z.boolean(), message: z.string() });
const savedListingMails = z.object({
  savedListingMails: z.boolean().describe('Mails about saved listings (price drops, sales)'),
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
  // Accounts
  'POST /api/auth/signup': {
    body: (rules: AccountRules) => signUpSchema(rules).extend({ altcha: challengeField }),
    response: apiMessageSchema,
  },
  'POST /api/auth/verify-email': {
    body: z.object({ token: z.string().trim().min(1).max(200) }),
    response: apiMessageSchema.extend({ alreadyVerified: z.literal(true).optional() }),
  },
  'POST /api/auth/resend-verification': { body: emailOnlySchema, response: apiMessageSchema },
  'POST /api/auth/signin': {
    body: signInSchema.extend({ altcha: challengeField }),
    response: signedInAnswer,
  },
  'GET /api/auth/me': { response: signedInAnswer },
  'GET /api/auth/session': { response: succeeded({ user: currentUserSchema.nullable() }) },
  'POST /api/auth/signout': { response: apiMessageSchema },
  'POST /api/auth/forgot-password': { body: emailOnlySchema, response: apiMessageSchema },
  'POST /api/auth/reset-password/:token': {
    params: z.object({ token: z.string() }),
    body: resetPasswordSchema,
    response: apiMessageSchema,
  },
  'POST /api/user/update/:id': {
    params: userIdParams,
    body: (rules: AccountRules) => profileUpdateSchema(rules),
    response: currentUserSchema.extend({ success: z.literal(true), message: z.string() }),
  },
  'DELETE /api/user/delete/:id': {
    params: userIdParams,
    body: deleteAccountSchema,
    response: apiMessageSchema,
  },
  'GET /api/user/get/:id': {
    params: userIdParams,
    response: sellerSchema.extend({ success: z.literal(true) }),
  },
  'GET /api/user/listings/:id': { params: idParams, response: z.array(listingSchema) },
  // Single sign-on's last step for a first sign-on (the rest are browser navigations)
  'GET /api/sso/pending': {
    response: succeeded({
      name: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
    }),
  },
  'POST /api/sso/finish': {
    body: (rules: AccountRules) =>
      z.object({
        groupmelink: newAccountGroupmeLinkSchema(rules),
        firstName: signOnName.optional(),
        lastName: signOnName.optional(),
      }),
    response: succeeded({ user: currentUserSchema, returnTo: z.string() }),
  },
  'GET /api/config': { response: publicConfigSchema },
  'GET /api/campus': { response: campusConfigSchema },
  'GET /api/privacy': { response: privacySettingsSchema },
  'POST /api/data-export': { response: apiMessageSchema },
  'GET /api/push/key': { response: pushPublicKeySchema },
  'GET /api/push/subscriptions': { response: pushSubscriptionListSchema },
  'POST /api/push/subscriptions': {
    body: pushSubscriptionInputSchema,
    response: pushSubscriptionSchema,
  },
  'DELETE /api/push/subscriptions': { body: pushUnsubscribeSchema, response: apiMessageSchema },
  // Books and courses
  'GET /api/books/:isbn': { params: isbnParams, response: bookLookupAnswerSchema },
  'GET /api/books/:isbn/prices': {
    params: isbnParams,
    response: priceSummarySchema.extend({ success: z.literal(true), isbn: z.string() }),
  },
  'POST /api/books/:isbn/cover': {
    params: isbnParams,
    response: z.object({
      success: z.literal(true),
      publisherCover: z.literal(true),
      url: z.string().describe("The stored image, to put in the listing's imageUrls"),
      width: z.number().int(),
      height: z.number().int(),
    }),
  },
  'GET /api/course/:code': { params: courseParams, response: courseAnswerSchema },
  'GET /api/course/:code/prices': {
    params: courseParams,
    query: z.strictObject({
      title: z.string().trim().min(1, 'is required').max(100, 'is too long'),
    }),
    response: priceSummarySchema.extend({ success: z.literal(true) }),
  },
  // Moderation and statistics
  'POST /api/reports/:listingId': {
    params: listingParams,
    body: reportSchema,
    response: apiMessageSchema,
  },
  'GET /api/moderation/queue': { response: z.array(moderationQueueItemSchema) },
  'GET /api/moderation/log': { response: z.array(moderationLogEntrySchema) },
  'POST /api/moderation/listings/:listingId/dismiss': {
    params: listingParams,
    response: apiMessageSchema,
  },
  'POST /api/moderation/listings/:listingId/remove': {
    params: listingParams,
    body: moderationReasonSchema,
    response: apiMessageSchema,
  },
  'POST /api/moderation/listings/:listingId/restore': {
    params: listingParams,
    response: apiMessageSchema,
  },
  'POST /api/moderation/users/:userId/suspend': {
    params: userParams,
    body: moderationReasonSchema,
    response: apiMessageSchema,
  },
  'POST /api/moderation/users/:userId/unsuspend': {
    params: userParams,
    response: apiMessageSchema,
  },
  'GET /api/moderation/conversations': { response: reportedConversationListSchema },
  'GET /api/moderation/conversations/:id': {
    params: idParams,
    response: reportedConversationThreadSchema,
  },
  'POST /api/moderation/conversations/:id/dismiss': {
    params: idParams,
    response: apiMessageSchema,
  },
  'GET /api/statistics': { query: statisticsQuerySchema, response: operatorStatisticsSchema },
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
  'GET /api/listing/get': { query: listingSearchSchema, response: z.array(searchedListingSchema) },
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

  'GET /api/listing-link/:token': {
    params: z.object({ token: z.string() }),
    response: z.object({ action: z.enum(LISTING_LINK_ACTIONS), listing: listingSchema }),
  },
  'POST /api/listing-link/:token': {
    params: z.object({ token: z.string() }),
    response: z.object({
      success: z.literal(true),
      message: z.string(),
      action: z.enum(LISTING_LINK_ACTIONS),
      listing: listingSchema.nullable().describe('null once removed'),
    }),
  },
  // Saved listings
  'GET /api/saved/get': { response: z.array(listingSchema) },
  'POST /api/saved/add/:id': { params: idParams, response: savedAnswer },
  'DELETE /api/saved/remove/:id': { params: idParams, response: savedAnswer },
  'GET /api/saved/mails': { response: savedListingMails },
  'POST /api/saved/mails': {
    body: savedListingMails,
    response: savedListingMails.extend({ success: z.literal(true), message: z.string() }),
  },
  ...dealRoutes,
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
  // Uploads (the rest of tus is the upload client's, not a call of the app's)
  'DELETE /api/uploads/:id': {
    params: idParams,
    response: {
      200: apiMessageSchema.describe('A processed image nothing uses was deleted'),
      204: z.undefined().describe('An upload in progress was terminated (tus)'),
    },
  },
  'PUT /api/term-end-mail': { body: termEndMailSchema, response: termEndMailAnswer },
  // What reaches a student: per kind mail and push, quiet hours (features/notifications)
  'GET /api/notifications': { response: notificationSettingsAnswerSchema },
  'PUT /api/notifications': {
    body: notificationSettingsSchema,
    response: notificationSettingsSavedSchema,
  },
} as const satisfies Record<
  `${'GET' | 'POST' | 'PUT' | 'DELETE'} /api/${string}`,
  ApiRouteContract
>;

export type ApiRoutes = typeof apiRoutes;
/** A route of the table: `METHOD /path`. */
export type ApiRouteKey = keyof ApiRoutes;
