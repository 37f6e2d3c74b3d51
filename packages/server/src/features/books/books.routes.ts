import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { type BookLookupAnswer } from '@campus-books/common/book.schemas';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { googleBooksProvider } from './google-books';
import { openLibraryProvider } from './open-library';
import { importPublisherCover } from './book-cover';
import { findBookPrices } from './book-prices';
import { createBookLookup, type LookupResult } from './books.service';
import type { BookProvider } from './book-lookup';
import type { BookLookupConfig } from '../../config/config';

const sellerErrors = errorResponses({
  400: 'Not an ISBN',
  ...REQUIRE_VERIFIED_USER_ERRORS,
});

/** Open Library always (no key), then Google Books when a key is set; none when lookup is off. */
export function providersOf(config: BookLookupConfig): BookProvider[] {
  if (!config.lookup) return [];
  const providers = [openLibraryProvider(config.openLibraryUrl, config.openLibraryCoversUrl)];
  if (config.googleBooksApiKey) {
    providers.push(
      googleBooksProvider(
        config.googleBooksUrl,
        config.googleBooksCoversUrl,
        config.googleBooksApiKey,
      ),
    );
  }
  return providers;
}

export const LOOKUP_MESSAGES: Record<Exclude<LookupResult['kind'], 'found'>, string> = {
  unknown: "We don't know this book: fill in the form yourself",
  unavailable: "We couldn't look it up, fill in the form yourself",
  off: 'Book lookup is off on this campus: fill in the form yourself',
};

/** /api/books/{isbn}: autofill by ISBN, this campus's prices of a book, the publisher's cover. */
export default async function booksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Cover imports running now (kept as a Map, like the lookups' in createBookLookup): an entry lives
  // only while its import runs; a result kept longer would hand a later request an image it did not
  // upload.
  const coverImports = new Map<string, ReturnType<typeof importPublisherCover>>();
  const lookup = createBookLookup({
    db: app.database.db,
    providers: providersOf(app.config.books),
  });

  // Sellers fill the form signed in; asking providers on behalf of anyone would invite abuse.
  app.get(
    '/:isbn',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['GET /api/books/:isbn'].params,
        response: { 200: apiRoutes['GET /api/books/:isbn'].response, ...sellerErrors },
      },
    },
    async (request): Promise<{ success: true } & BookLookupAnswer> => {
      const result = await lookup.lookup(request.params.isbn);
      if (result.kind === 'found')
        return { success: true as const, found: true, book: result.book };
      return { success: true as const, found: false, message: LOOKUP_MESSAGES[result.kind] };
    },
  );

  app.get(
    '/:isbn/prices',
    {
      schema: {
        params: apiRoutes['GET /api/books/:isbn/prices'].params,
        response: {
          200: apiRoutes['GET /api/books/:isbn/prices'].response,
          ...errorResponses({ 400: 'Not an ISBN' }),
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await findBookPrices(app.database.db, request.params.isbn)),
    }),
  );

  app.post(
    '/:isbn/cover',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['POST /api/books/:isbn/cover'].params,
        response: {
          201: apiRoutes['POST /api/books/:isbn/cover'].response,
          ...sellerErrors,
          ...errorResponses({
            404: 'No publisher cover is known for this book',
            413: 'The cover is too large',
            415: 'The cover is not an image',
            422: 'The cover has too many pixels, or moved',
            429: 'Too many uploads this hour',
          }),
        },
      },
    },
    async (request, reply) => {
      // The same seller's concurrent imports of one cover share one import (one image, not 25).
      const key = `${currentUser(request).id}:${request.params.isbn}`;
      let running = coverImports.get(key);
      if (!running) {
        running = importPublisherCover(app, lookup, currentUser(request).id, request.params.isbn);
        coverImports.set(key, running);
        void running.catch(() => {}).finally(() => coverImports.delete(key));
      }
      const image = await running;
      return reply.status(201).send({ success: true as const, publisherCover: true, ...image });
    },
  );
}
