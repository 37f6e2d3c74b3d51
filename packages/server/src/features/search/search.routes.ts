import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '@campus-books/common/constants';
import { foldSchoolParams } from '@campus-books/common/listing.schemas';
import { sendJsonText } from '../../lib/json-text';
import { jsonArray } from '../listings/listing-json-answer';
import { searchDeps, searchListings } from './search.service';

/** GET /api/listing/get: the search (registered under /api/listing beside the listings' routes). */
export default async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = searchDeps(app);

  // The answer stays an array (the spec's contract); the search's total travels in headers.
  app.get(
    '/get',
    {
      preValidation: async (request: FastifyRequest) => {
        request.query = foldSchoolParams(request.query);
      },
      schema: {
        querystring: apiRoutes['GET /api/listing/get'].query,
        response: {
          200: apiRoutes['GET /api/listing/get'].response,
          ...errorResponses({ 400: 'A parameter is not valid' }),
        },
      },
    },
    async (request, reply) => {
      const page = await searchListings(deps, request.query);
      void reply.header(TOTAL_COUNT_HEADER, String(page.total));
      if (page.isTotalCapped) void reply.header(TOTAL_COUNT_CAPPED_HEADER, 'true');
      // The listings' JSON is written by the database (db/listing-json-trigger.ts).
      return sendJsonText(reply, jsonArray(page.listings));
    },
  );
}
