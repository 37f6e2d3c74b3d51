import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiMessageSchema, errorResponses, succeeded } from '@campus-books/common/api';
import { ALERT_MESSAGES, alertInputSchema, alertSchema } from '@campus-books/common/alert.schemas';
import { badRequest } from '../../lib/errors';
import { currentUser } from '../../plugins/sessions';
import { demandFor, demandQuerySchema, mostWanted } from './alerts.demand';
import {
  createAlert,
  deleteAlert,
  listAlerts,
  toAlert,
  unsubscribe,
  updateAlert,
} from './alerts.service';

const idParams = z.object({ id: z.string() });

const signedInErrors = errorResponses({ 401: 'Not signed in', 403: 'E-mail not verified' });
const ownAlertErrors = errorResponses({
  400: 'The body is not valid',
  401: 'Not signed in',
  403: 'E-mail not verified',
  404: 'No such alert of yours',
});

/** /api/alerts: a student's alerts, and the one-click unsubscribe of their mails. */
export default async function alertsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/get',
    { ...verified, schema: { response: { 200: z.array(alertSchema), ...signedInErrors } } },
    async (request) => (await listAlerts(app, currentUser(request).id)).map(toAlert),
  );

  app.post(
    '/create',
    {
      ...verified,
      schema: {
        body: alertInputSchema,
        response: {
          201: alertSchema.extend({ success: z.literal(true) }),
          ...ownAlertErrors,
          ...errorResponses({ 409: 'Too many alerts' }),
        },
      },
    },
    async (request, reply) => {
      const row = await createAlert(app, currentUser(request).id, request.body);
      return reply.status(201).send({ success: true as const, ...toAlert(row) });
    },
  );

  app.post(
    '/update/:id',
    {
      ...verified,
      schema: {
        params: idParams,
        body: alertInputSchema,
        response: {
          200: alertSchema.extend({ success: z.literal(true), message: z.string() }),
          ...ownAlertErrors,
        },
      },
    },
    async (request) => {
      const row = await updateAlert(app, currentUser(request).id, request.params.id, request.body);
      return { success: true as const, message: 'Alert updated', ...toAlert(row) };
    },
  );

  app.delete(
    '/delete/:id',
    {
      ...verified,
      schema: { params: idParams, response: { 200: apiMessageSchema, ...ownAlertErrors } },
    },
    async (request) => {
      await deleteAlert(app, currentUser(request).id, request.params.id);
      return { success: true as const, message: 'Alert deleted' };
    },
  );

  // Demand sellers can see: counts only, for everyone (nobody is named).
  app.get(
    '/demand',
    {
      schema: {
        querystring: demandQuerySchema,
        response: {
          200: succeeded({ students: z.number().int().describe('Students with a matching alert') }),
          ...errorResponses({ 400: 'Neither an isbn nor a subject and courseNumber' }),
        },
      },
    },
    async (request) => {
      const counting = demandFor(app, request.query);
      if (!counting) throw badRequest('Ask for an isbn, or a subject and a courseNumber');
      return { success: true as const, students: await counting };
    },
  );

  const wantedCourse = z.object({
    subject: z.string(),
    courseNumber: z.string(),
    students: z.number().int(),
    listings: z.number().int(),
  });
  app.get(
    '/most-wanted',
    { schema: { response: { 200: succeeded({ courses: z.array(wantedCourse) }) } } },
    async () => ({
      success: true as const,
      courses: await mostWanted(app, new Date()),
    }),
  );

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
          response: {
            200: apiMessageSchema,
            ...errorResponses({ 400: 'The token is missing or not valid' }),
          },
        },
      },
      async (request) => {
        await unsubscribe(app, request.body?.token ?? request.query.token);
        return { success: true as const, message: ALERT_MESSAGES.unsubscribed };
      },
    );
  });
}
