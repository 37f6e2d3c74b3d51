import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { webPaths } from '@campus-books/common/paths';
import { unauthorized } from '../../lib/errors';
import { toCurrentUser } from '../accounts/current-user';
import { isModerator } from '../moderation/moderators';
import { createCas } from './cas';
import { createOidc } from './oidc';
import { createSaml } from './saml';
import { safeReturnTo } from './return-to';
import { finishSignOn, signOn, type Identity, type Refusal, type SignOnDeps } from './sso.accounts';
import { ssoCookies } from './sso.state';

/** A protocol's callback: the identity the provider vouched for, or null for any failed check. */
export type CallbackResult = { identity: Identity; returnTo: string } | null;

/** What every protocol offers the routes. */
export interface SignOnProtocol {
  start(reply: FastifyReply, returnTo: string, request: FastifyRequest): Promise<string>;
  logoutUrl(): Promise<string | null>;
}

/** A redirect answer, documented as such (a browser navigation, not a JSON call). */
export const redirectAnswer = (description: string) => ({
  303: { description, content: { 'text/plain': { schema: z.string().max(0) } } },
});

/**
 * /api/sso (docs/api/sso.md, docs/sso.md): registered only when SSO_PROTOCOL is set. The
 * protocol-specific routes (callbacks, SAML metadata) are registered by each protocol's plugin.
 */
export default async function ssoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sso = app.config.sso!;
  const { sessionSecret, secureCookies, schoolEmailDomain, publicUrl } = app.config;
  const cookies = ssoCookies({ sessionSecret, secureCookies, protocol: sso.protocol });
  const deps: SignOnDeps = {
    db: app.database.db,
    sessions: app.sessions,
    cookies,
    sso,
    schoolEmailDomain,
    publicUrl,
  };
  const rules = {
    schoolEmailDomain,
    groupmeLinkPrefix: app.config.groupmeLinkPrefix,
  };
  const problem = (reply: FastifyReply, reason: Refusal) =>
    reply.header('Cache-Control', 'no-store').redirect(webPaths.ssoProblem.href(reason), 303);

  /** Ends a callback: signed in (to where the student was going), a first sign-in's step, or why not. */
  async function land(reply: FastifyReply, result: CallbackResult) {
    if (!result) return problem(reply, 'failed');
    const outcome = await signOn(deps, reply, result.identity, result.returnTo);
    if (outcome.kind === 'refused') return problem(reply, outcome.reason);
    const to = outcome.kind === 'finish' ? webPaths.ssoFinish.href() : result.returnTo;
    return reply.header('Cache-Control', 'no-store').redirect(to, 303);
  }

  let protocol: SignOnProtocol;
  if (sso.oidc) {
    const oidc = createOidc(deps, sso.oidc);
    protocol = oidc;
    app.get(
      '/oidc/callback',
      {
        schema: {
          querystring: z.object({
            code: z.string().max(4096).optional(),
            state: z.string().max(4096).optional(),
            iss: z.string().max(4096).optional(),
            error: z.string().max(4096).optional(),
            error_description: z.string().max(4096).optional(),
          }),
          response: redirectAnswer('Signed in (to where the student was going), or why not'),
        },
      },
      async (request, reply) => land(reply, await oidc.callback(request, reply)),
    );
  } else if (sso.saml) {
    const saml = createSaml(deps, sso.saml);
    protocol = saml;
    // The IdP posts an HTML form from its own site: its signed assertion, the request id it
    // answers and the flow cookie are the authority, not the origin.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    app.post(
      '/saml/acs',
      {
        config: { crossSite: true },
        schema: {
          body: z.object({
            SAMLResponse: z.string().max(200_000).optional(),
            RelayState: z.string().max(200).optional(),
          }),
          response: redirectAnswer('Signed in (to where the student was going), or why not'),
        },
      },
      async (request, reply) => land(reply, await saml.callback(request, reply, request.body)),
    );
    app.get(
      '/saml/metadata',
      {
        schema: {
          response: {
            200: {
              description: "This service provider's SAML metadata, for the campus's IdP",
              content: { 'application/samlmetadata+xml': { schema: z.string() } },
            },
          },
        },
      },
      async (request, reply) =>
        reply.header('Content-Type', 'application/samlmetadata+xml').send(saml.metadata()),
    );
  } else if (sso.cas) {
    const cas = createCas(deps, sso.cas);
    protocol = cas;
    app.get(
      '/cas/callback',
      {
        schema: {
          querystring: z.object({ ticket: z.string().max(4096).optional() }),
          response: redirectAnswer('Signed in (to where the student was going), or why not'),
        },
      },
      async (request, reply) =>
        land(reply, await cas.callback(request, reply, request.query.ticket)),
    );
  } else {
    throw new Error(`SSO protocol ${sso.protocol} is not available`);
  }

  app.get(
    '/start',
    {
      schema: {
        querystring: z.object({ returnTo: z.string().max(1000).optional() }),
        response: redirectAnswer("To the campus's sign-on, or to why it is unavailable"),
      },
    },
    async (request, reply) => {
      let location: string;
      try {
        location = await protocol.start(reply, safeReturnTo(request.query.returnTo), request);
      } catch (error) {
        request.log.error({ err: error }, 'the sign-on provider could not be reached');
        return problem(reply, 'unavailable');
      }
      return reply.header('Cache-Control', 'no-store').redirect(location, 303);
    },
  );

  app.get(
    '/pending',
    {
      schema: {
        response: {
          200: apiRoutes['GET /api/sso/pending'].response,
          ...errorResponses({ 401: 'No first sign-in in progress (or it expired)' }),
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const pending = await cookies.readPending(request);
      if (!pending) throw unauthorized(`Your sign-in expired: sign in with ${sso.name} again`);
      return {
        success: true as const,
        name: sso.name,
        email: pending.email,
        firstName: pending.givenName,
        lastName: pending.familyName,
      };
    },
  );

  const finishRoute = apiRoutes['POST /api/sso/finish'];
  app.post(
    '/finish',
    {
      schema: {
        body: finishRoute.body(rules),
        response: {
          201: finishRoute.response,
          ...errorResponses({
            400: 'The body is not valid, or the sign-in is already finished',
            401: 'No first sign-in in progress (or it expired)',
            403: 'The account is suspended',
          }),
        },
      },
    },
    async (request, reply) => {
      const pending = await cookies.readPending(request);
      if (!pending) throw unauthorized(`Your sign-in expired: sign in with ${sso.name} again`);
      const user = await finishSignOn(deps, reply, pending, request.body);
      return reply.status(201).send({
        success: true as const,
        user: toCurrentUser(user, isModerator(app.config.trust, user)),
        returnTo: safeReturnTo(pending.returnTo),
      });
    },
  );

  app.get(
    '/logout',
    { schema: { response: redirectAnswer("To the provider's sign-out, or home without one") } },
    async (request, reply) => {
      let location = '/';
      try {
        location = (await protocol.logoutUrl()) ?? '/';
      } catch (error) {
        request.log.warn({ err: error }, 'the sign-on provider could not be reached');
      }
      return reply.header('Cache-Control', 'no-store').redirect(location, 303);
    },
  );
}
