import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { currentUser, REQUIRE_USER_ERRORS } from '../../plugins/sessions';
import { DATA_EXPORT_JOB, prepareDataExport, readExport, readExportToken } from './data-export';

const BAD_LINK =
  'This download link is not valid or has expired: ask for a new copy in your profile';

/**
 * /api/data-export: "Download my data". POST asks for a copy (prepared by a job, mailed as a signed
 * link that works for EXPORT_LINK_DAYS); GET /download?token= hands the archive to its owner, signed in.
 */
export default async function dataExportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.jobs.register<{ userId: string }>(DATA_EXPORT_JOB, async ({ payload, now }) => {
    await prepareDataExport(app, payload.userId, now);
  });

  app.post(
    '',
    {
      preValidation: app.requireUser,
      schema: {
        response: {
          202: apiRoutes['POST /api/data-export'].response,
          ...errorResponses(REQUIRE_USER_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // One pending export per student: asking again while it is prepared adds nothing.
      await app.jobs.enqueue(
        DATA_EXPORT_JOB,
        { userId: user.id },
        { key: `data-export:${user.id}` },
      );
      return reply.code(202).send({
        success: true,
        message: `We are preparing a copy of your data: a download link will be mailed to ${user.email}`,
      });
    },
  );

  app.get(
    '/download',
    {
      preValidation: app.requireUser,
      schema: {
        querystring: z.object({ token: z.string().max(1000) }),
        response: {
          200: {
            description: 'A tar archive: data.json and the photos',
            content: { 'application/x-tar': { schema: z.string().meta({ format: 'binary' }) } },
          },
          ...errorResponses({
            400: 'No token',
            ...REQUIRE_USER_ERRORS,
            403: "Another student's link",
            404: 'Not valid, expired or replaced by a newer copy',
          }),
        },
      },
    },
    async (request, reply) => {
      const link = readExportToken(app.config.sessionSecret, request.query.token, app.jobs.now());
      if (!link) throw notFound(BAD_LINK);
      if (link.userId !== currentUser(request).id) {
        throw forbidden(
          'This link is for another account: sign in as the student who asked for it',
        );
      }
      const archive = await readExport(app.storage, link);
      if (!archive) throw new AppError(404, BAD_LINK);
      return (
        reply
          .header('content-type', 'application/x-tar')
          .header('content-disposition', 'attachment; filename="campus-books-data.tar"')
          .header('cache-control', 'no-store')
          // A Buffer is sent as it is; the schema above only documents it.
          .send(archive as unknown as string)
      );
    },
  );
}
