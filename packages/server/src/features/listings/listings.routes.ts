import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listingCreateSchema,
  listingSearchSchema,
  listingUpdateSchema,
} from '@campus-books/common/listing.schemas';
import { currentUser } from '../../plugins/sessions';
import { toListing } from './listing.serializer';
import {
  createListing,
  deleteListing,
  getListing,
  getOwnListing,
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

  app.get('/get', { schema: { querystring: listingSearchSchema } }, async (request) => {
    const rows = await searchListings(app, request.query);
    return rows.map(toListing);
  });

  app.get('/get/:id', { schema: { params: idParams } }, async (request) =>
    toListing(await getListing(app, request.params.id)),
  );

  app.post(
    '/create',
    { ...ownerOnly, schema: { body: listingCreateSchema } },
    async (request, reply) => {
      const listing = await createListing(app, currentUser(request), request.body);
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
