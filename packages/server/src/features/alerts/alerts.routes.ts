import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALERT_MESSAGES, alertInputSchema } from '@campus-books/common/alert.schemas';
import { badRequest } from '../../lib/errors';
import { currentUser } from '../../plugins/sessions';
import { SUBJECT_CODES } from '@campus-books/common/campus';
import { toIsbn13 } from '@campus-books/common/isbn';
import { registerAlertJobs } from './alerts.delivery';
import { countDemand, mostWanted } from './alerts.demand';
import {
  createAlert,
  deleteAlert,
  listAlerts,
  toAlert,
  unsubscribe,
  updateAlert,
} from './alerts.service';

const idParams = z.object({ id: z.string() });

/** /api/alerts: a student's alerts, and the one-click unsubscribe of their mails. */
export default async function alertsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerAlertJobs(app);
  const verified = { preValidation: app.requireVerifiedUser };

  app.get('/get', verified, async (request) =>
    (await listAlerts(app, currentUser(request).id)).map(toAlert),
  );

  app.post(
    '/create',
    { ...verified, schema: { body: alertInputSchema } },
    async (request, reply) => {
      const row = await createAlert(app, currentUser(request).id, request.body);
      return reply.status(201).send({ success: true, ...toAlert(row) });
    },
  );

  app.post(
    '/update/:id',
    { ...verified, schema: { params: idParams, body: alertInputSchema } },
    async (request) => {
      const row = await updateAlert(app, currentUser(request).id, request.params.id, request.body);
      return { success: true, message: 'Alert updated', ...toAlert(row) };
    },
  );

  app.delete('/delete/:id', { ...verified, schema: { params: idParams } }, async (request) => {
    await deleteAlert(app, currentUser(request).id, request.params.id);
    return { success: true, message: 'Alert deleted' };
  });

  // Demand sellers can see: counts only, for everyone (nobody is named).
  app.get(
    '/demand',
    {
      schema: {
        querystring: z.strictObject({
          isbn: z
            .string()
            .max(20)
            .optional()
            .refine((s) => s === undefined || toIsbn13(s) !== null, 'is not a valid ISBN'),
          subject: z
            .string()
            .max(10)
            .transform((s) => s.toUpperCase())
            .refine((s) => SUBJECT_CODES.has(s), 'is not a subject of this campus')
            .optional(),
          courseNumber: z.string().trim().min(1).max(20).optional(),
        }),
      },
    },
    async (request) => {
      const { isbn, subject, courseNumber } = request.query;
      if (!isbn && !(subject && courseNumber)) {
        throw badRequest('Ask for an isbn, or a subject and a courseNumber');
      }
      const students = await countDemand(app, {
        isbn: isbn ? (toIsbn13(isbn) ?? undefined) : undefined,
        subject,
        courseNumber,
      });
      return { success: true, students };
    },
  );

  app.get('/most-wanted', async () => ({
    success: true,
    courses: await mostWanted(app, new Date()),
  }));

  // RFC 8058: a mail client posts `List-Unsubscribe=One-Click` as a form to the header's URL, from
  // anywhere. Only this route reads a form body and skips the same-origin check: the signed token in
  // the URL (or the web page's JSON body) is the whole authority, and it only ever stops alerts.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/unsubscribe',
      {
        config: { crossSite: true },
        schema: {
          querystring: z.object({ token: z.string().max(2000).optional() }),
          body: z
            .object({ token: z.string().max(2000).optional() })
            .loose()
            .optional(),
        },
      },
      async (request) => {
        await unsubscribe(app, request.body?.token ?? request.query.token);
        return { success: true, message: ALERT_MESSAGES.unsubscribed };
      },
    );
  });
}
