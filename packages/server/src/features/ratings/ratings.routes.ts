import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import {
  currentUser,
  REQUIRE_USER_ERRORS,
  REQUIRE_VERIFIED_USER_ERRORS,
} from '../../plugins/sessions';
import { moderatorHooks } from '../moderation/moderators';
import {
  getExchange,
  listExchanges,
  moderateRating,
  publicProfile,
  rateExchange,
  reportedRatings,
  reportRating,
  type RatingDeps,
} from './ratings.service';

const moderatorErrors = {
  ...REQUIRE_USER_ERRORS,
  403: 'Not a moderator',
  404: 'No such rating',
} as const;

export function ratingDeps(app: FastifyInstance): RatingDeps {
  return {
    db: app.database.db,
    now: () => app.jobs.now(),
    revealMs: app.config.ratings.revealMs,
  };
}

/** /api/ratings: the student's exchanges and their ratings, reports, and the moderators' queue. */
export default async function ratingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };
  const deps = ratingDeps(app);

  app.get(
    '/exchanges',
    {
      ...verified,
      schema: {
        response: {
          200: apiRoutes['GET /api/ratings/exchanges'].response,
          ...errorResponses(REQUIRE_VERIFIED_USER_ERRORS),
        },
      },
    },
    async (request) => listExchanges(deps, currentUser(request)),
  );

  app.get(
    '/exchanges/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['GET /api/ratings/exchanges/:id'].params,
        response: {
          200: apiRoutes['GET /api/ratings/exchanges/:id'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            404: 'No such exchange, or not one of yours',
          }),
        },
      },
    },
    async (request) => getExchange(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/exchanges/:id',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/ratings/exchanges/:id'].params,
        body: apiRoutes['POST /api/ratings/exchanges/:id'].body,
        response: {
          201: apiRoutes['POST /api/ratings/exchanges/:id'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            400: 'The rating is not valid (thumb, tags of its side, comment length and characters)',
            404: 'No such exchange, or not one of yours',
            409: 'You already rated it, or the other account was deleted',
          }),
        },
      },
    },
    async (request, reply) => {
      const exchange = await rateExchange(
        deps,
        currentUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(201).send({ success: true as const, exchange });
    },
  );

  app.post(
    '/:id/report',
    {
      ...verified,
      schema: {
        params: apiRoutes['POST /api/ratings/:id/report'].params,
        body: apiRoutes['POST /api/ratings/:id/report'].body,
        response: {
          200: apiRoutes['POST /api/ratings/:id/report'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            400: 'The reason is not valid',
            404: 'No such rating, not revealed yet, or removed',
          }),
        },
      },
    },
    async (request) => {
      await reportRating(deps, currentUser(request), request.params.id, request.body.reason);
      return { success: true as const, message: 'Thank you: the moderators will look at it' };
    },
  );

  const moderators = moderatorHooks(app);
  app.get(
    '/reported',
    {
      ...moderators,
      schema: {
        response: {
          200: apiRoutes['GET /api/ratings/reported'].response,
          ...errorResponses({ 401: moderatorErrors[401], 403: moderatorErrors[403] }),
        },
      },
    },
    async () => ({ ratings: await reportedRatings(deps) }),
  );

  for (const [path, action, message] of [
    ['remove', 'remove_rating', 'The rating is removed'],
    ['dismiss', 'dismiss_rating', 'The reports are dismissed'],
  ] as const) {
    app.post(
      `/:id/${path}`,
      {
        ...moderators,
        schema: {
          params: apiRoutes[`POST /api/ratings/:id/${path}`].params,
          body: apiRoutes[`POST /api/ratings/:id/${path}`].body,
          response: {
            200: apiRoutes[`POST /api/ratings/:id/${path}`].response,
            ...errorResponses({
              ...moderatorErrors,
              400: 'The reason is not valid',
              409:
                path === 'remove'
                  ? 'The rating is already removed'
                  : 'The rating has no open reports',
            }),
          },
        },
      },
      async (request) => {
        await moderateRating(
          deps,
          currentUser(request),
          request.params.id,
          action,
          request.body.reason,
        );
        return { success: true as const, message };
      },
    );
  }
}

/** /api/profiles/{id}: a student's public profile (signed-in students; never an e-mail). */
export async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = ratingDeps(app);
  app.get(
    '/:id',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        params: apiRoutes['GET /api/profiles/:id'].params,
        response: {
          200: apiRoutes['GET /api/profiles/:id'].response,
          ...errorResponses({ ...REQUIRE_VERIFIED_USER_ERRORS, 404: 'No such student' }),
        },
      },
    },
    async (request) => publicProfile(deps, request.params.id),
  );
}
