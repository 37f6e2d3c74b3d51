import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { type Draft } from '@campus-books/common/shelf.schemas';
import type { ListingDraftRow } from '../../db/shelf.schema';
import { notFound } from '../../lib/errors';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { findOwnDrafts, isDraftId } from './drafts.repository';
import { DRAFT_NOT_FOUND, publishDrafts, removeDraft, saveDraft } from './drafts.service';

const signedIn = errorResponses(REQUIRE_VERIFIED_USER_ERRORS);
const ownDraft = errorResponses({
  ...REQUIRE_VERIFIED_USER_ERRORS,
  404: 'No such draft of yours',
});

function toDraft(row: ListingDraftRow): Draft {
  return {
    id: row.id,
    fields: row.fields,
    imageUrls: row.imageUrls,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** /api/drafts: "Sell my shelf", a seller's listings in the making and "Publish all" (issue 31). */
export default async function draftsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/drafts'].response, ...signedIn } },
    },
    async (request) => ({
      drafts: (await findOwnDrafts(app.database.db, currentUser(request).id)).map(toDraft),
    }),
  );

  // The device makes the id, so a save sent twice (a retry after a lost answer) is one draft.
  app.put(
    '/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['PUT /api/drafts/:id'].params,
        body: apiRoutes['PUT /api/drafts/:id'].body,
        response: {
          200: apiRoutes['PUT /api/drafts/:id'].response,
          ...ownDraft,
          ...errorResponses({
            400: 'The body is not valid, or a photo is not your own upload',
            409: 'Too many drafts kept',
          }),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isDraftId(id)) throw notFound(DRAFT_NOT_FOUND);
      return toDraft(await saveDraft(app, currentUser(request), id.toLowerCase(), request.body));
    },
  );

  app.delete(
    '/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['DELETE /api/drafts/:id'].params,
        response: { 200: apiRoutes['DELETE /api/drafts/:id'].response, ...ownDraft },
      },
    },
    async (request) => {
      await removeDraft(app, currentUser(request), request.params.id);
      return { success: true as const, message: 'Draft deleted' };
    },
  );

  app.post(
    '/publish',
    {
      ...verified,
      schema: {
        body: apiRoutes['POST /api/drafts/publish'].body,
        response: {
          200: apiRoutes['POST /api/drafts/publish'].response,
          ...signedIn,
          ...errorResponses({ 400: 'The body is not valid' }),
        },
      },
    },
    async (request) => {
      const results = await publishDrafts(app, currentUser(request), request.body.draftIds);
      const published = results.filter((r) => r.status === 'published').length;
      return { success: true as const, published, failed: results.length - published, results };
    },
  );
}
