import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { currentUser, REQUIRE_USER_ERRORS } from '../../plugins/sessions';
import { reportListing } from './reports.service';

/** POST /api/reports/{listingId}: a signed-in, verified student reports a listing, once. */
export default async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/:listingId',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['POST /api/reports/:listingId'].params,
        body: apiRoutes['POST /api/reports/:listingId'].body,
        response: {
          201: apiRoutes['POST /api/reports/:listingId'].response,
          ...errorResponses({
            400: 'The body is not valid',
            ...REQUIRE_USER_ERRORS,
            403: 'E-mail not verified, or your own listing',
            404: 'No such listing',
            409: 'Already reported by you',
          }),
        },
      },
    },
    async (request, reply) => {
      await reportListing(app, currentUser(request), request.params.listingId, request.body);
      return reply
        .status(201)
        .send({ success: true as const, message: 'Thanks: the campus moderators will look at it' });
    },
  );
}
