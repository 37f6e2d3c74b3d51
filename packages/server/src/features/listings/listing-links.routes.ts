import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { toListing } from './listing.serializer';
import { listingDeps } from './listing-deps';
import { type ListingLinkAction, useListingLink, verifyListingLink } from './listing-links';

// Any string: what is not a link this server signed is `400 LINK_INVALID` (listing-links.ts).

const linkErrors = errorResponses({
  400: 'The link is not valid',
  410: 'The link was used, is out of date, or its listing is gone',
});

const DONE: Record<ListingLinkAction, string> = {
  extend: 'Thanks: your listing is confirmed available',
  sold: 'Your listing is marked as sold',
  remove: 'Your listing is removed',
};
const RELISTED = 'Your listing is back on the marketplace';

/**
 * /api/listing-link/{token}: the one-click links of expiry reminders (docs/api/listings.md). GET
 * only describes (mail scanners fetch links); the web page's button POSTs. No session needed: the
 * signed link is the authority, for its one listing and action.
 */
export default async function listingLinkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/:token',
    {
      schema: {
        params: apiRoutes['GET /api/listing-link/:token'].params,
        response: { 200: apiRoutes['GET /api/listing-link/:token'].response, ...linkErrors },
      },
    },
    async (request) => {
      const { listing, action } = await verifyListingLink(
        { db: app.database.db, sessionSecret: app.config.sessionSecret, now: () => app.jobs.now() },
        request.params.token,
      );
      return { action, listing: toListing(listing) };
    },
  );

  app.post(
    '/:token',
    {
      schema: {
        params: apiRoutes['POST /api/listing-link/:token'].params,
        response: {
          200: apiRoutes['POST /api/listing-link/:token'].response,
          ...linkErrors,
        },
      },
    },
    async (request) => {
      const { action, listing, relisted } = await useListingLink(
        { ...listingDeps(app), sessionSecret: app.config.sessionSecret },
        request.params.token,
      );
      return {
        success: true as const,
        message: relisted ? RELISTED : DONE[action],
        action,
        listing: listing ? toListing(listing) : null,
      };
    },
  );
}
