import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  TOTAL_COUNT_CAPPED_HEADER,
  TOTAL_COUNT_HEADER,
  listingCreateSchema,
  listingSearchSchema,
  listingUpdateSchema,
} from '@campus-books/common/listing.schemas';
import { currentUser } from '../../plugins/sessions';
import { idempotencyKeyOf } from './idempotency-key';
import { toListing } from './listing.serializer';
import { findListingByIdempotencyKey } from './listings.repository';
import {
  createListing,
  deleteListing,
  getOwnListing,
  getVisibleListing,
  markListingSold,
  relistListing,
  searchListings,
  updateListing,
} from './listings.service';

const idParams = z.object({ id: z.string() });

/** /api/listing: search, read, and the owner's create / update / sold / relist / delete. */
export default async function listingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // preValidation: a signed-out caller hears 401 before anything about the body.
  const ownerOnly = { preValidation: app.requireVerifiedUser };

  // The answer stays an array (the spec's contract); the search's total travels in headers.
  app.get('/get', { schema: { querystring: listingSearchSchema } }, async (request, reply) => {
    const page = await searchListings(app, request.query);
    void reply.header(TOTAL_COUNT_HEADER, String(page.total));
    if (page.isTotalCapped) void reply.header(TOTAL_COUNT_CAPPED_HEADER, 'true');
    return page.rows.map(toListing);
  });

  app.get('/get/:id', { schema: { params: idParams } }, async (request) =>
    toListing(await getVisibleListing(app, request, request.params.id)),
  );

  // One account filled the home page in a second: creations per account and hour are capped.
  const createLimit = app.limitAttempts({
    name: 'listing-create:account',
    max: app.config.rateLimits.listingsPerAccount,
    windowMs: 60 * 60_000,
    keyOf: (request) => request.session?.user.id,
  });

  // A retry of a create that already made its listing answers it again and counts no creation.
  async function replayKnownKey(request: FastifyRequest, reply: FastifyReply) {
    const key = idempotencyKeyOf(request);
    if (key === undefined) return;
    const made = await findListingByIdempotencyKey(app.database.db, currentUser(request).id, key);
    if (made) return reply.status(201).send({ success: true, ...toListing(made) });
  }

  app.post(
    '/create',
    {
      ...ownerOnly,
      preHandler: [replayKnownKey, createLimit],
      schema: { body: listingCreateSchema },
    },
    async (request, reply) => {
      const listing = await createListing(
        app,
        currentUser(request),
        request.body,
        idempotencyKeyOf(request),
      );
      return reply.status(201).send({ success: true, ...toListing(listing) });
    },
  );

  app.post(
    '/update/:id',
    { ...ownerOnly, schema: { params: idParams, body: listingUpdateSchema } },
    async (request) => {
      const listing = await getOwnListing(app, currentUser(request), request.params.id);
      const updated = await updateListing(app, listing, request.body);
      return { success: true, message: 'Listing updated', ...toListing(updated) };
    },
  );

  app.post('/mark-as-sold/:id', { ...ownerOnly, schema: { params: idParams } }, async (request) => {
    await markListingSold(app, await getOwnListing(app, currentUser(request), request.params.id));
    return { success: true, message: 'Listing marked as sold' };
  });

  app.post('/relist/:id', { ...ownerOnly, schema: { params: idParams } }, async (request) => {
    await relistListing(app, await getOwnListing(app, currentUser(request), request.params.id));
    return { success: true, message: 'Listing is for sale again' };
  });

  app.delete('/delete/:id', { ...ownerOnly, schema: { params: idParams } }, async (request) => {
    await deleteListing(app, await getOwnListing(app, currentUser(request), request.params.id));
    return { success: true, message: 'Listing deleted' };
  });
}
