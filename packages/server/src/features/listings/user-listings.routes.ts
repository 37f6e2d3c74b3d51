import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { listingSchema } from '@campus-books/common/listing.schemas';
import { currentUser } from '../../plugins/sessions';
import { toListing } from './listing.serializer';
import { listSellerListings } from './listings.service';

/** GET /api/user/listings/{id}: the signed-in seller's own listings, active and sold, newest first. */
export default async function userListingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/listings/:id',
    {
      preValidation: app.requireUser,
      schema: {
        params: z.object({ id: z.string() }),
        response: {
          200: z.array(listingSchema),
          ...errorResponses({ 401: 'Not signed in', 403: "Another seller's listings" }),
        },
      },
    },
    async (request) => {
      const rows = await listSellerListings(app, currentUser(request), request.params.id);
      return rows.map(toListing);
    },
  );
}
