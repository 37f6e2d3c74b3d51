import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '@campus-books/common/constants';
import { foldSchoolParams } from '@campus-books/common/listing.schemas';
import { notModifiedResponse, ReadyAnswer } from '../../lib/ready-answer';
import { jsonArray } from '../listings/listing-json-answer';
import { keptUntilCatalogueChanges } from './catalogue-kept';
import type { SearchPage } from './search-listings';
import { searchDeps, searchListings } from './search.service';

/** A search's answer as bytes ready to send, and its total (the count of searches that found nothing). */
interface KeptSearch {
  ready: ReadyAnswer;
  total: number;
}

/** A page's answer: its listings' JSON, written by the database (db/listing-json-trigger.ts), and its total. */
function readyPage(page: SearchPage): ReadyAnswer {
  const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(page.total) };
  if (page.isTotalCapped) headers[TOTAL_COUNT_CAPPED_HEADER] = 'true';
  return new ReadyAnswer(jsonArray(page.listings), headers);
}

/** GET /api/listing/get: the search (registered under /api/listing beside the listings' routes). */
export default async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = searchDeps(app);
  // Whole answers as ready bytes (lib/ready-answer.ts), on both engines, until the catalogue
  // changes: a hit serializes and compresses nothing (docs/performance.md). On PostgreSQL a kept
  // answer is trusted only after a read of the catalogue's version (catalogue-kept.ts), as the
  // course page and the signed-out pages do, so a change acknowledged by any server is in the next
  // answer.
  const answers = keptUntilCatalogueChanges<KeptSearch>(app.listingCaches, {
    maxEntries: 500,
    ttlMs: 10 * 60_000,
    sizeOf: (kept) => kept.ready.roomBytes,
  });

  // The answer stays an array (the spec's contract); the search's total travels in headers.
  app.get(
    '/get',
    {
      // A callback, not an async function: no promise on the most asked route (docs/performance.md).
      preValidation: (request: FastifyRequest, _reply, done) => {
        request.query = foldSchoolParams(request.query);
        done();
      },
      schema: {
        querystring: apiRoutes['GET /api/listing/get'].query,
        response: {
          200: apiRoutes['GET /api/listing/get'].response,
          ...notModifiedResponse,
          ...errorResponses({ 400: 'A parameter is not valid' }),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      if (deps.consortium.partners().length > 0) {
        // Across partner campuses (consortium-search.ts): each campus's part is kept under its own
        // keys, emptied by its own catalogue's changes; the merged answer is built for each request.
        return readyPage(await searchListings(deps, query)).send(request, reply);
      }
      let isLoaded = false;
      // The parsed query lists its keys in the schema's order, so equal searches give equal keys.
      const kept = await answers(JSON.stringify(query), async () => {
        isLoaded = true;
        const page = await searchListings(deps, query);
        return { ready: readyPage(page), total: page.total };
      });
      // The search counted its own miss; an answer from memory is a search all the same.
      if (!isLoaded && kept.total === 0 && query.searchTerm && !query.startIndex) {
        deps.misses.record(query.searchTerm);
      }
      return kept.ready.send(request, reply);
    },
  );
}
