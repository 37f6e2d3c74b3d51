import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiMessageSchema, errorResponses } from '@campus-books/common/api';
import {
  draftPublishAnswerSchema,
  draftPublishSchema,
  draftSaveSchema,
  draftSchema,
  type Draft,
} from '@campus-books/common/shelf.schemas';
import type { ListingDraftRow } from '../../db/shelf.schema';
import { notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/sessions';
import { findOwnDrafts, isDraftId } from './drafts.repository';
import { DRAFT_NOT_FOUND, publishDrafts, removeDraft, saveDraft } from './drafts.service';

const idParams = z.object({ id: z.string() });
const signedIn = errorResponses({ 401: 'Not signed in', 403: 'E-mail not verified' });
const ownDraft = errorResponses({
  401: 'Not signed in',
  403: 'E-mail not verified',
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
      schema: { response: { 200: z.object({ drafts: z.array(draftSchema) }), ...signedIn } },
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
        params: idParams,
        body: draftSaveSchema,
        response: {
          200: draftSchema,
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
    { ...verified, schema: { params: idParams, response: { 200: apiMessageSchema, ...ownDraft } } },
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
        body: draftPublishSchema,
        response: {
          200: draftPublishAnswerSchema,
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
