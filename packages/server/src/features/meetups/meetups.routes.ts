import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { MEETUP_MESSAGES as M } from '@campus-books/common/meetup.schemas';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { participantRole } from '../../deal/deal';
import { conflict } from '../../lib/errors';
import { meetupCalendar, meetupConversationLink } from './meetup-calendar';
import {
  answerMeetup,
  getMeetupOf,
  listMeetups,
  suggestMeetup,
  type MeetupDeps,
} from './meetups.service';

const idParams = z.object({ id: z.string() });
const writeErrors = {
  ...REQUIRE_VERIFIED_USER_ERRORS,
  403: 'E-mail not verified, a block, or (to answer) your own suggestion',
  409: 'The other account was deleted, or the suggestion was already answered or replaced',
} as const;

/** /api/meetups: a spot and a time suggested in a conversation, accepted by the other side. */
export default async function meetupsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };
  const deps: MeetupDeps = {
    db: app.database.db,
    now: () => app.jobs.now(),
    config: app.config.conversations,
    jobs: app.jobs,
    reminderMs: app.config.ratings.meetupReminderMs,
  };

  app.get(
    '/',
    {
      ...verified,
      schema: {
        querystring: apiRoutes['GET /api/meetups'].query,
        response: {
          200: apiRoutes['GET /api/meetups'].response,
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            400: 'A parameter is not valid',
            404: 'No such conversation, or not one of yours',
          }),
        },
      },
    },
    async (request) => ({
      meetups: await listMeetups(deps, currentUser(request), request.query.conversationId),
    }),
  );

  app.post(
    '/',
    {
      ...verified,
      schema: {
        body: apiRoutes['POST /api/meetups'].body,
        response: {
          201: apiRoutes['POST /api/meetups'].response,
          ...errorResponses({
            ...writeErrors,
            400: 'Not a spot of the campus list, or a time in the past or too far ahead',
            404: 'No such conversation, or not one of yours',
          }),
        },
      },
    },
    async (request, reply) => {
      const meetup = await suggestMeetup(deps, currentUser(request), request.body);
      return reply.code(201).send({ success: true as const, meetup });
    },
  );

  for (const [path, answer] of [
    ['accept', 'accepted'],
    ['decline', 'declined'],
  ] as const) {
    app.post(
      `/:id/${path}`,
      {
        ...verified,
        schema: {
          params: apiRoutes[`POST /api/meetups/:id/${path}`].params,
          response: {
            200: apiRoutes[`POST /api/meetups/:id/${path}`].response,
            ...errorResponses({ ...writeErrors, 404: 'No such meetup, or not one of yours' }),
          },
        },
      },
      async (request) => ({
        success: true as const,
        meetup: await answerMeetup(deps, currentUser(request), request.params.id, answer),
      }),
    );
  }

  app.get(
    '/:id/calendar.ics',
    {
      ...verified,
      schema: {
        params: idParams,
        response: {
          200: {
            description: 'The accepted meetup as an iCalendar file (RFC 5545)',
            content: { 'text/calendar': { schema: z.string() } },
          },
          ...errorResponses({
            ...REQUIRE_VERIFIED_USER_ERRORS,
            404: 'No such meetup, or not one of yours',
            409: 'The meetup is not accepted',
          }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const meetup = await getMeetupOf(deps, user, request.params.id);
      if (meetup.status !== 'accepted') throw conflict(M.notAccepted);
      const calendar = meetupCalendar({
        id: meetup.id,
        spotId: meetup.spot_id,
        startsAt: new Date(meetup.starts_at),
        listingName: meetup.listing_name,
        otherName:
          participantRole(user.id, { sellerId: meetup.seller_id, buyerId: meetup.buyer_id }) ===
          'seller'
            ? meetup.buyer_username
            : meetup.seller_username,
        link: meetupConversationLink(app.config.publicUrl, meetup.conversation_id),
        domain: new URL(app.config.publicUrl).hostname,
        reminderMinutes: Math.round(deps.reminderMs / 60_000),
      });
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="meetup.ics"')
        .header('cache-control', 'private, no-store')
        .send(calendar);
    },
  );
}
