import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { webPaths } from '@campus-books/common/paths';
import type { CampusWork } from '../../campuses/campus-context';
import type { SsoProtocol } from '../../config/sso-config';
import { notFound, unauthorized } from '../../lib/errors';
import { toCurrentUser } from '../accounts/current-user';
import { isModerator } from '../moderation/moderators';
import { safeReturnTo } from './return-to';
import { finishSignOn, signOn, type Identity, type Refusal } from './sso.accounts';
import { campusSignOns, checkCampusSignOns, type CampusSignOn } from './sso.campus';

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

/** Options of the SSO routes: the campuses of a many-campus installation, each with its provider or none. */
export interface SsoRoutesOptions {
  campuses?: readonly CampusWork[];
}

const NO_SIGN_ON = 'This campus has no single sign-on';

/**
 * /api/sso (docs/api/sso.md, docs/sso.md): registered when SSO_PROTOCOL is set, or when campuses
 * are served (each its own provider, from its file's `sso` section, or none: then every route
 * answers 404). The protocol-specific routes (callbacks, SAML metadata) are the configured
 * protocol's, or every protocol's for campuses; each answers only on a campus of that protocol.
 */
export default async function ssoRoutes(fastify: FastifyInstance, options: SsoRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { campuses } = options;
  if (campuses) checkCampusSignOns(app, campuses);
  const signOnOf = campusSignOns(app);
  const protocols = new Set<SsoProtocol>(
    campuses ? ['oidc', 'saml', 'cas'] : [app.config.sso!.protocol],
  );
  const absent = campuses ? errorResponses({ 404: `${NO_SIGN_ON} (of this protocol)` }) : {};
  const redirect = (description: string) => ({ ...redirectAnswer(description), ...absent });

  /** The request's campus's sign-on (of `protocol`, when named); a 404 where it has none. */
  function signOnHere(protocol?: SsoProtocol): CampusSignOn {
    const here = signOnOf();
    if (!here || (protocol && here.sso.protocol !== protocol)) throw notFound(NO_SIGN_ON);
    return here;
  }
  // Read per request (getters): a many-campus installation's requests are each their campus's.
  const rules = {
    get schoolEmailDomain() {
      return app.config.schoolEmailDomain;
    },
    get groupmeLinkPrefix() {
      return app.config.groupmeLinkPrefix;
    },
  };
  const problem = (reply: FastifyReply, reason: Refusal) =>
    reply.header('Cache-Control', 'no-store').redirect(webPaths.ssoProblem.href(reason), 303);

  /** Ends a callback: signed in (to where the student was going), a first sign-in's step, or why not. */
  async function land(here: CampusSignOn, reply: FastifyReply, result: CallbackResult) {
    if (!result) return problem(reply, 'failed');
    const outcome = await signOn(here.deps, reply, result.identity, result.returnTo);
    if (outcome.kind === 'refused') return problem(reply, outcome.reason);
    const to = outcome.kind === 'finish' ? webPaths.ssoFinish.href() : result.returnTo;
    return reply.header('Cache-Control', 'no-store').redirect(to, 303);
  }

  if (protocols.has('oidc')) {
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
          response: redirect('Signed in (to where the student was going), or why not'),
        },
      },
      async (request, reply) => {
        const here = signOnHere('oidc');
        return land(here, reply, await here.oidc!.callback(request, reply));
      },
    );
  }
  if (protocols.has('saml')) {
    await app.register(async (scope) => {
      const saml = scope.withTypeProvider<ZodTypeProvider>();
      // The IdP posts an HTML form from its own site: its signed assertion, the request id it
      // answers and the flow cookie are the authority, not the origin.
      saml.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 256 * 1024 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      saml.post(
        '/saml/acs',
        {
          config: { crossSite: true },
          schema: {
            body: z.object({
              SAMLResponse: z.string().max(200_000).optional(),
              RelayState: z.string().max(200).optional(),
            }),
            response: redirect('Signed in (to where the student was going), or why not'),
          },
        },
        async (request, reply) => {
          const here = signOnHere('saml');
          return land(here, reply, await here.saml!.callback(request, reply, request.body));
        },
      );
      saml.get(
        '/saml/metadata',
        {
          schema: {
            response: {
              200: {
                description: "This service provider's SAML metadata, for the campus's IdP",
                content: { 'application/samlmetadata+xml': { schema: z.string() } },
              },
              ...absent,
            },
          },
        },
        async (_request, reply) =>
          reply
            .header('Content-Type', 'application/samlmetadata+xml')
            .send(signOnHere('saml').saml!.metadata()),
      );
    });
  }
  if (protocols.has('cas')) {
    app.get(
      '/cas/callback',
      {
        schema: {
          querystring: z.object({ ticket: z.string().max(4096).optional() }),
          response: redirect('Signed in (to where the student was going), or why not'),
        },
      },
      async (request, reply) => {
        const here = signOnHere('cas');
        return land(here, reply, await here.cas!.callback(request, reply, request.query.ticket));
      },
    );
  }
  const protocolOf = (here: CampusSignOn): SignOnProtocol => (here.oidc ?? here.saml ?? here.cas)!;

  app.get(
    '/start',
    {
      schema: {
        querystring: z.object({ returnTo: z.string().max(1000).optional() }),
        response: redirect("To the campus's sign-on, or to why it is unavailable"),
      },
    },
    async (request, reply) => {
      const protocol = protocolOf(signOnHere());
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
          ...absent,
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const { sso, deps } = signOnHere();
      const pending = await deps.cookies.readPending(request);
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
          ...absent,
        },
      },
    },
    async (request, reply) => {
      const { sso, deps } = signOnHere();
      const pending = await deps.cookies.readPending(request);
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
    { schema: { response: redirect("To the provider's sign-out, or home without one") } },
    async (request, reply) => {
      const protocol = protocolOf(signOnHere());
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
