import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema, errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { ALERT_MESSAGES, unsubscribedMessage } from '@campus-books/common/alert.schemas';
import { AppError, badRequest } from '../../lib/errors';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import { demandFor, mostWanted } from './alerts.demand';
import {
  createAlert,
  deleteAlert,
  listAlerts,
  readToken,
  toAlert,
  unsubscribe,
  updateAlert,
  type UnsubscribeDeps,
} from './alerts.service';
import { askPage, donePage, invalidPage, UNSUBSCRIBE_PAGE_CSP } from './unsubscribe-page';

const signedInErrors = errorResponses(REQUIRE_VERIFIED_USER_ERRORS);
const ownAlertErrors = errorResponses({
  400: 'The body is not valid',
  ...REQUIRE_VERIFIED_USER_ERRORS,
  404: 'No such alert of yours',
});

/** /api/alerts: a student's alerts, and the one-click unsubscribe of their mails. */
export default async function alertsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };
  const create = apiRoutes['POST /api/alerts/create'];
  const update = apiRoutes['POST /api/alerts/update/:id'];
  const remove = apiRoutes['DELETE /api/alerts/delete/:id'];
  const unsubscribeDeps: UnsubscribeDeps = {
    db: app.database.db,
    sessionSecret: app.config.sessionSecret,
    now: () => app.jobs.now(),
  };

  app.get(
    '/get',
    {
      ...verified,
      schema: { response: { 200: apiRoutes['GET /api/alerts/get'].response, ...signedInErrors } },
    },
    async (request) => (await listAlerts(app.database.db, currentUser(request).id)).map(toAlert),
  );

  app.post(
    '/create',
    {
      ...verified,
      schema: {
        body: create.body,
        response: {
          201: {
            description: 'Created',
            content: { 'application/json': { schema: create.response } },
          },
          200: {
            description:
              'The caller has this alert already (same filters and settings): it, unchanged',
            content: { 'application/json': { schema: create.response } },
          },
          ...ownAlertErrors,
          ...errorResponses({
            409: 'Too many alerts, or an alert with these filters but other settings exists',
          }),
        },
      },
    },
    async (request, reply) => {
      const { row, created } = await createAlert(
        app.database.db,
        currentUser(request).id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send({ success: true as const, ...toAlert(row) });
    },
  );

  app.post(
    '/update/:id',
    {
      ...verified,
      schema: {
        params: update.params,
        body: update.body,
        response: {
          200: update.response,
          ...ownAlertErrors,
          ...errorResponses({ 409: 'Another of the caller’s alerts has these filters' }),
        },
      },
    },
    async (request) => {
      const row = await updateAlert(
        app.database.db,
        currentUser(request).id,
        request.params.id,
        request.body,
      );
      return { success: true as const, message: 'Alert updated', ...toAlert(row) };
    },
  );

  app.delete(
    '/delete/:id',
    {
      ...verified,
      schema: {
        params: remove.params,
        response: { 200: remove.response, ...ownAlertErrors },
      },
    },
    async (request) => {
      await deleteAlert(app.database.db, currentUser(request).id, request.params.id);
      return { success: true as const, message: 'Alert deleted' };
    },
  );

  // Demand sellers can see: counts only, for everyone (nobody is named).
  app.get(
    '/demand',
    {
      schema: {
        querystring: apiRoutes['GET /api/alerts/demand'].query,
        response: {
          200: apiRoutes['GET /api/alerts/demand'].response,
          ...errorResponses({ 400: 'Neither an isbn nor a subject and courseNumber' }),
        },
      },
    },
    async (request) => {
      const counting = demandFor(app.database.db, request.query);
      if (!counting) throw badRequest('Ask for an isbn, or a subject and a courseNumber');
      return { success: true as const, students: await counting };
    },
  );

  app.get(
    '/most-wanted',
    { schema: { response: { 200: apiRoutes['GET /api/alerts/most-wanted'].response } } },
    async () => ({
      success: true as const,
      courses: await mostWanted(app.database.db, new Date()),
    }),
  );

  // RFC 8058: a mail client posts `List-Unsubscribe=One-Click` as a form to the header's URL, from
  // anywhere. Only this route reads a form body and skips the same-origin check: the signed token in
  // the URL (or the web page's JSON body) is the whole authority, and it only ever stops mails (the
  // alerts it names, the mails about saved listings). The web app's page posts JSON; the page a GET
  // shows posts its form with `confirm=page` and gets a page back.
  const unsubscribeRoute = apiRoutes['POST /api/alerts/unsubscribe'];
  const htmlPage = (description: string) => ({
    description,
    content: { 'text/html': { schema: z.string() } },
  });
  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', UNSUBSCRIBE_PAGE_CSP)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send(html);
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    // Opening the URL (a mail client, a person, a scanner) changes nothing: a page asks first.
    routes.get(
      '/unsubscribe',
      {
        schema: {
          querystring: unsubscribeRoute.query,
          response: {
            200: htmlPage('A page: what the link stops, and a button that does it'),
            400: htmlPage('A page: the link is missing, damaged or expired'),
          },
        },
      },
      async (request, reply) => {
        const { token } = request.query;
        const read = readToken(unsubscribeDeps, token);
        if (!token || !read) {
          return sendPage(
            reply,
            400,
            invalidPage(app.config.publicUrl, ALERT_MESSAGES.badUnsubscribe),
          );
        }
        const scopeOf = {
          alertCount: read.alertIds.length,
          savedListings: read.savedListings,
          termEndMail: read.termEndMail,
          messageMails: read.messageMails,
          kinds: read.kinds,
        };
        return sendPage(reply, 200, askPage(app.config.publicUrl, token, scopeOf));
      },
    );
    routes.post(
      '/unsubscribe',
      {
        config: { crossSite: true },
        schema: {
          querystring: unsubscribeRoute.query,
          body: unsubscribeRoute.body,
          response: {
            200: {
              description: 'Unsubscribed (also when the link was used before)',
              content: {
                'application/json': { schema: unsubscribeRoute.response },
                'text/html': { schema: z.string() },
              },
            },
            400: {
              description: 'The token is missing or not valid',
              content: {
                'application/json': { schema: apiErrorSchema },
                'text/html': { schema: z.string() },
              },
            },
          },
        },
      },
      async (request, reply) => {
        const fromPage = request.body?.confirm === 'page';
        let stopped: Awaited<ReturnType<typeof unsubscribe>>;
        try {
          stopped = await unsubscribe(unsubscribeDeps, request.body?.token ?? request.query.token);
        } catch (error) {
          if (!fromPage || !(error instanceof AppError)) throw error;
          return sendPage(
            reply,
            error.statusCode,
            invalidPage(app.config.publicUrl, error.message),
          );
        }
        const message = unsubscribedMessage(stopped);
        if (fromPage) return sendPage(reply, 200, donePage(app.config.publicUrl, message));
        return { success: true as const, message };
      },
    );
  });
}
