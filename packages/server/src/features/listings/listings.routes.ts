import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { foldSchoolFlags } from '@campus-books/common/listing.schemas';
import { notModifiedResponse } from '../../lib/ready-answer';
import {
  currentUser,
  REQUIRE_USER_ERRORS,
  REQUIRE_VERIFIED_USER_ERRORS,
} from '../../plugins/sessions';
import { idempotencyKeyOf } from './idempotency-key';
import { listingDeps } from './listing-deps';
import { toListing } from './listing.serializer';
import { findListingByIdempotencyKey } from './listings.repository';
import {
  createListing,
  deleteListing,
  getOwnListing,
  getVisibleListingAnswer,
  LISTING_CREATE_LIMIT,
  markListingSold,
  relistListing,
  updateListing,
} from './listings.service';
import { requestReview } from '../moderation/moderation.service';

const ownerErrors = errorResponses({
  ...REQUIRE_USER_ERRORS,
  403: 'Not verified, or not the seller of this listing',
  404: 'No such listing',
});

const moderated = errorResponses({ 409: 'The listing is hidden or removed by the moderators' });

/** /api/listing: read, and the owner's create / update / sold / relist / delete. */
export default async function listingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = listingDeps(app);
  // preValidation: a signed-out caller hears 401 before anything about the body.
  const ownerOnly = { preValidation: app.requireVerifiedUser };
  // The seed's one boolean per school, read as the `schools` list before the body is validated.
  const withSchoolFlags = {
    preValidation: [
      app.requireVerifiedUser,
      async (request: FastifyRequest) => {
        request.body = foldSchoolFlags(request.body);
      },
    ],
  };

  app.get(
    '/get/:id',
    {
      schema: {
        params: apiRoutes['GET /api/listing/get/:id'].params,
        response: {
          200: apiRoutes['GET /api/listing/get/:id'].response,
          ...notModifiedResponse,
          ...errorResponses({ 404: 'No such listing, or not visible' }),
        },
      },
    },
    // The listing's JSON is written by the database (db/listing-json-trigger.ts), and sent as bytes
    // kept ready with it (lib/ready-answer.ts): compressed once, with its ETag.
    async (request, reply) =>
      (await getVisibleListingAnswer(deps, request, request.params.id)).send(request, reply),
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
    const made = await findListingByIdempotencyKey(deps.db, currentUser(request).id, key);
    if (made) return reply.status(201).send({ success: true as const, ...toListing(made) });
  }

  app.post(
    '/create',
    {
      ...withSchoolFlags,
      preHandler: [replayKnownKey, createLimit],
      schema: {
        body: apiRoutes['POST /api/listing/create'].body,
        response: {
          201: apiRoutes['POST /api/listing/create'].response,
          ...errorResponses({
            400: 'The body is not valid',
            ...REQUIRE_VERIFIED_USER_ERRORS,
            429: 'Too many listings created this hour',
          }),
        },
      },
    },
    async (request, reply) => {
      const listing = await createListing(
        deps,
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
      ...withSchoolFlags,
      schema: {
        params: apiRoutes['POST /api/listing/update/:id'].params,
        body: apiRoutes['POST /api/listing/update/:id'].body,
        response: {
          200: apiRoutes['POST /api/listing/update/:id'].response,
          ...ownerErrors,
          ...errorResponses({ 400: 'The body is not valid', 409: 'The listing is sold' }),
        },
      },
    },
    async (request) => {
      const listing = await getOwnListing(deps, currentUser(request), request.params.id);
      const updated = await updateListing(deps, listing, request.body);
      return { success: true as const, message: 'Listing updated', ...toListing(updated) };
    },
  );

  app.post(
    '/mark-as-sold/:id',
    {
      ...ownerOnly,
      schema: {
        params: apiRoutes['POST /api/listing/mark-as-sold/:id'].params,
        response: {
          200: apiRoutes['POST /api/listing/mark-as-sold/:id'].response,
          ...ownerErrors,
          ...moderated,
        },
      },
    },
    async (request) => {
      await markListingSold(
        deps,
        await getOwnListing(deps, currentUser(request), request.params.id),
      );
      return { success: true as const, message: 'Listing marked as sold' };
    },
  );

  app.post(
    '/relist/:id',
    {
      ...ownerOnly,
      schema: {
        params: apiRoutes['POST /api/listing/relist/:id'].params,
        response: {
          200: apiRoutes['POST /api/listing/relist/:id'].response,
          ...ownerErrors,
          ...moderated,
        },
      },
    },
    async (request) => {
      await relistListing(deps, await getOwnListing(deps, currentUser(request), request.params.id));
      return { success: true as const, message: 'Listing is for sale again' };
    },
  );

  app.delete(
    '/delete/:id',
    {
      ...ownerOnly,
      schema: {
        params: apiRoutes['DELETE /api/listing/delete/:id'].params,
        response: { 200: apiRoutes['DELETE /api/listing/delete/:id'].response, ...ownerErrors },
      },
    },
    async (request) => {
      const seller = currentUser(request);
      await deleteListing(deps, seller, await getOwnListing(deps, seller, request.params.id));
      return { success: true as const, message: 'Listing deleted' };
    },
  );

  app.post(
    '/request-review/:id',
    {
      ...ownerOnly,
      schema: {
        params: apiRoutes['POST /api/listing/request-review/:id'].params,
        response: {
          200: apiRoutes['POST /api/listing/request-review/:id'].response,
          ...ownerErrors,
          ...errorResponses({ 409: 'The listing is not hidden by reports' }),
        },
      },
    },
    async (request) => {
      await requestReview(deps, await getOwnListing(deps, currentUser(request), request.params.id));
      return { success: true as const, message: 'The moderators will look at it first' };
    },
  );
}
