import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { notFound } from '../../lib/errors';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { isListingId } from '../listings/listings.repository';
import { LISTING_NOT_FOUND } from '../listings/listing-visibility';
import { findSavedListings, isSaveable, saveListing, unsaveListing } from './saved.repository';
import { setSavedListingMails } from '../accounts/users.repository';

const signedInErrors = errorResponses(REQUIRE_VERIFIED_USER_ERRORS);
const savedErrors = errorResponses({
  ...REQUIRE_VERIFIED_USER_ERRORS,
  404: 'No such listing',
});

/** /api/saved: a student's saved (hearted) listings; savers hear when one gets cheaper or sells. */
export default async function savedRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/get',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/saved/get'].response, ...savedErrors } },
    },
    async (request) => findSavedListings(app.database.db, currentUser(request).id),
  );

  app.post(
    '/add/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/saved/add/:id'].params,
        response: { 200: apiRoutes['POST /api/saved/add/:id'].response, ...savedErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      // A hidden or removed listing is "not found" here as on its page (the visibility rule).
      if (!isListingId(id) || !(await saveListing(app.database.db, currentUser(request).id, id))) {
        throw notFound(LISTING_NOT_FOUND);
      }
      return { success: true as const, saved: true, message: 'Listing saved' };
    },
  );

  // Whether the student hears of price drops and sales of their saved listings (on by default; the
  // mails' one-click unsubscribe turns it off).
  app.get(
    '/mails',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/saved/mails'].response, ...signedInErrors } },
    },
    async (request) => ({ savedListingMails: currentUser(request).savedListingMails }),
  );
  app.post(
    '/mails',
    {
      ...verified,
      schema: {
        body: apiRoutes['POST /api/saved/mails'].body,
        response: {
          200: apiRoutes['POST /api/saved/mails'].response,
          ...errorResponses({ 400: 'The body is not valid' }),
          ...signedInErrors,
        },
      },
    },
    async (request) => {
      const { savedListingMails } = request.body;
      await setSavedListingMails(app.database.db, currentUser(request).id, savedListingMails);
      return {
        success: true as const,
        savedListingMails,
        message: savedListingMails
          ? 'We will mail you when a saved listing gets cheaper or sells'
          : 'No more mails about your saved listings',
      };
    },
  );

  app.delete(
    '/remove/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['DELETE /api/saved/remove/:id'].params,
        response: { 200: apiRoutes['DELETE /api/saved/remove/:id'].response, ...savedErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const userId = currentUser(request).id;
      if (!isListingId(id)) throw notFound(LISTING_NOT_FOUND);
      // Removing one's own saved entry always works; otherwise it answers as saving would.
      const removed = await unsaveListing(app.database.db, userId, id);
      if (!removed && !(await isSaveable(app.database.db, userId, id))) {
        throw notFound(LISTING_NOT_FOUND);
      }
      return {
        success: true as const,
        saved: false,
        message: 'Listing removed from your saved listings',
      };
    },
  );
}
