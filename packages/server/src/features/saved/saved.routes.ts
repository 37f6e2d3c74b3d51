import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { listingSchema } from '@campus-books/common/listing.schemas';
import { savedListings } from '../../db/schema';
import { currentUser } from '../../plugins/sessions';
import { getListing } from '../listings/listings.service';
import { findSavedListings } from './saved.repository';

const idParams = z.object({ id: z.string() });

const savedAnswer = z.object({ success: z.literal(true), saved: z.boolean(), message: z.string() });
const savedErrors = errorResponses({
  401: 'Not signed in',
  403: 'E-mail not verified',
  404: 'No such listing',
});

/** /api/saved: a student's saved (hearted) listings; savers hear when one gets cheaper or sells. */
export default async function savedRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/get',
    { ...verified, schema: { response: { 200: z.array(listingSchema), ...savedErrors } } },
    async (request) => findSavedListings(app.database.db, currentUser(request).id),
  );

  app.post(
    '/add/:id',
    { ...verified, schema: { params: idParams, response: { 200: savedAnswer, ...savedErrors } } },
    async (request) => {
      const listing = await getListing(app, request.params.id);
      // From the listing's row, so a listing deleted meanwhile saves nothing (instead of failing).
      await app.database.db.execute(sql`
      INSERT INTO saved_listings (user_id, listing_id)
      SELECT ${currentUser(request).id}, id FROM listings WHERE id = ${listing.id}
      ON CONFLICT DO NOTHING`);
      return { success: true as const, saved: true, message: 'Listing saved' };
    },
  );

  app.delete(
    '/remove/:id',
    { ...verified, schema: { params: idParams, response: { 200: savedAnswer, ...savedErrors } } },
    async (request) => {
      const listing = await getListing(app, request.params.id);
      await app.database.db
        .delete(savedListings)
        .where(
          and(
            eq(savedListings.userId, currentUser(request).id),
            eq(savedListings.listingId, listing.id),
          ),
        );
      return {
        success: true as const,
        saved: false,
        message: 'Listing removed from your saved listings',
      };
    },
  );
}
