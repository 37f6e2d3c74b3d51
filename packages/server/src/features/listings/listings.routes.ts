import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiMessageSchema, errorResponses } from '@campus-books/common/api';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '@campus-books/common/constants';
import {
  listingCreateSchema,
  listingSchema,
  listingSearchSchema,
  listingUpdateSchema,
} from '@campus-books/common/listing.schemas';
import { sendJsonText } from '../../lib/json-text';
import { currentUser } from '../../plugins/sessions';
import { idempotencyKeyOf } from './idempotency-key';
import { jsonArray } from './listing-json-answer';
import { toListing } from './listing.serializer';
import { findListingByIdempotencyKey } from './listings.repository';
import {
  createListing,
  deleteListing,
  getOwnListing,
  getVisibleListingJson,
  LISTING_CREATE_LIMIT,
  markListingSold,
  relistListing,
  searchListings,
  updateListing,
} from './listings.service';
import { requestReview } from '../moderation/moderation.service';

const idParams = z.object({ id: z.string() });

const savedListingAnswer = listingSchema.extend({ success: z.literal(true) });
const updatedListingAnswer = savedListingAnswer.extend({ message: z.string() });
const ownerErrors = errorResponses({
  401: 'Not signed in',
  403: 'Not verified, or not the seller of this listing',
  404: 'No such listing',
});

const moderated = errorResponses({ 409: 'The listing is hidden or removed by the moderators' });

/** /api/listing: search, read, and the owner's create / update / sold / relist / delete. */
export default async function listingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // preValidation: a signed-out caller hears 401 before anything about the body.
  const ownerOnly = { preValidation: app.requireVerifiedUser };

  // The answer stays an array (the spec's contract); the search's total travels in headers.
  app.get(
    '/get',
    {
      schema: {
        querystring: listingSearchSchema,
        response: {
          200: z.array(listingSchema),
          ...errorResponses({ 400: 'A parameter is not valid' }),
        },
      },
    },
    async (request, reply) => {
      const page = await searchListings(app, request.query);
      void reply.header(TOTAL_COUNT_HEADER, String(page.total));
      if (page.isTotalCapped) void reply.header(TOTAL_COUNT_CAPPED_HEADER, 'true');
      // The listings' JSON is written by the database (db/listing-json-trigger.ts).
      return sendJsonText(reply, jsonArray(page.listings));
    },
  );

  app.get(
    '/get/:id',
    {
      schema: {
        params: idParams,
        response: {
          200: listingSchema,
          ...errorResponses({ 404: 'No such listing, or not visible' }),
        },
      },
    },
    // The listing's JSON is written by the database (db/listing-json-trigger.ts).
    async (request, reply) =>
      sendJsonText(reply, await getVisibleListingJson(app, request, request.params.id)),
  );

  // One account filled the home page in a second: creations per account and hour are capped.
  const createLimit = app.limitAttempts({
    ...LISTING_CREATE_LIMIT,
    max: app.config.rateLimits.listingsPerAccount,
    keyOf: (request) => request.session?.user.id,
  });

  // A retry of a create that already made its listing answers it again and counts no creation.
  async function replayKnownKey(request: FastifyRequest, reply: FastifyReply) {
    const key = idempotencyKeyOf(request);
    if (key === undefined) return;
    const made = await findListingByIdempotencyKey(app.database.db, currentUser(request).id, key);
    if (made) return reply.status(201).send({ success: true as const, ...toListing(made) });
  }

  app.post(
    '/create',
    {
      ...ownerOnly,
      preHandler: [replayKnownKey, createLimit],
      schema: {
        body: listingCreateSchema,
        response: {
          201: savedListingAnswer,
          ...errorResponses({
            400: 'The body is not valid',
            401: 'Not signed in',
            403: 'E-mail not verified',
            429: 'Too many listings created this hour',
          }),
        },
      },
    },
    async (request, reply) => {
      const listing = await createListing(
        app,
        currentUser(request),
        request.body,
        idempotencyKeyOf(request),
      );
      return reply.status(201).send({ success: true as const, ...toListing(listing) });
    },
  );

  app.post(
    '/update/:id',
    {
      ...ownerOnly,
      schema: {
        params: idParams,
        body: listingUpdateSchema,
        response: {
          200: updatedListingAnswer,
          ...ownerErrors,
          ...errorResponses({ 400: 'The body is not valid', 409: 'The listing is sold' }),
        },
      },
    },
    async (request) => {
      const listing = await getOwnListing(app, currentUser(request), request.params.id);
      const updated = await updateListing(app, listing, request.body);
      return { success: true as const, message: 'Listing updated', ...toListing(updated) };
    },
  );

  app.post(
    '/mark-as-sold/:id',
    {
      ...ownerOnly,
      schema: {
        params: idParams,
        response: { 200: apiMessageSchema, ...ownerErrors, ...moderated },
      },
    },
    async (request) => {
      await markListingSold(app, await getOwnListing(app, currentUser(request), request.params.id));
      return { success: true as const, message: 'Listing marked as sold' };
    },
  );

  app.post(
    '/relist/:id',
    {
      ...ownerOnly,
      schema: {
        params: idParams,
        response: { 200: apiMessageSchema, ...ownerErrors, ...moderated },
      },
    },
    async (request) => {
      await relistListing(app, await getOwnListing(app, currentUser(request), request.params.id));
      return { success: true as const, message: 'Listing is for sale again' };
    },
  );

  app.delete(
    '/delete/:id',
    {
      ...ownerOnly,
      schema: { params: idParams, response: { 200: apiMessageSchema, ...ownerErrors } },
    },
    async (request) => {
      const seller = currentUser(request);
      await deleteListing(app, seller, await getOwnListing(app, seller, request.params.id));
      return { success: true as const, message: 'Listing deleted' };
    },
  );

  app.post(
    '/request-review/:id',
    {
      ...ownerOnly,
      schema: {
        params: idParams,
        response: {
          200: apiMessageSchema,
          ...ownerErrors,
          ...errorResponses({ 409: 'The listing is not hidden by reports' }),
        },
      },
    },
    async (request) => {
      await requestReview(app, await getOwnListing(app, currentUser(request), request.params.id));
      return { success: true as const, message: 'The moderators will look at it first' };
    },
  );
}
