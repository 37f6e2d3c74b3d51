import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRoutes } from '@campus-books/common/api-routes';
import { errorResponses } from '@campus-books/common/api';
import { AppError, forbidden } from '../../lib/errors';
import { byEmail, byIp } from '../../plugins/rate-limit';
import { currentUser, REQUIRE_USER_ERRORS } from '../../plugins/sessions';
import { toCurrentUser } from './current-user';
import { isModerator } from '../moderation/moderators';
import { addressAttempt, beginSignIn } from './attempt-policy';
import { accountDeps } from './account-deps';
import { AUTH_MESSAGES } from './auth.messages';
import { challengeAnswerSchema, issueChallenge } from './challenge';
import { requestPasswordReset, resetPassword } from './password-reset.service';
import { checkCredentials } from './sign-in.service';
import { PASSWORD_THREADS } from './password';
import { limitConcurrency } from '../../lib/concurrency';
import { resendVerification, signUp, verifyEmail } from './sign-up.service';

const mailLimited = errorResponses({
  400: 'The body is not valid',
  429: 'Too many mails asked for this address or from this network',
});

/** /api/auth: sign-up, e-mail verification, sign-in and out, password reset (docs/api/accounts.md). */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const accounts = accountDeps(app);
  // A wave of sign-ins (a term's first morning) queues here, not in the database's pool: each one
  // runs a few statements before and after its password check, and 200 at once took the pool from
  // every other request for a third of a second (docs/performance.md, "rush"). Four per password
  // thread keep the threads busy while the others wait their turn.
  const signInsInTurn = limitConcurrency(4 * PASSWORD_THREADS);
  const limits = app.config.rateLimits;
  // Read per request (getters): a many-campus installation's requests are each their campus's.
  const rules = {
    get schoolEmailDomain() {
      return app.config.schoolEmailDomain;
    },
    get groupmeLinkPrefix() {
      return app.config.groupmeLinkPrefix;
    },
    // Consortium sharing: the students of the campuses this one shares with may sign up here.
    get partnerEmailDomains() {
      return app.consortium.partnerEmailDomains();
    },
  };
  // IP limits count every attempt (onRequest); per-address limits need the validated body.
  const perIp = (route: string, max: number) =>
    app.limitAttempts({ name: `${route}:ip`, max, keyOf: byIp });
  const perAddress = (route: string, max = limits.mailPerAddress) =>
    app.limitAttempts({ name: `${route}:email`, max, keyOf: byEmail });
  const mailLimits = (route: string) => ({
    onRequest: perIp(route, limits.mailPerIp),
    preHandler: perAddress(route),
  });

  // Past its ceiling an address solves a challenge instead of being refused (attempt-policy.ts).
  app.get(
    '/challenge',
    { schema: { response: { 200: challengeAnswerSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return issueChallenge(app);
    },
  );

  app.post(
    '/signup',
    {
      schema: {
        body: apiRoutes['POST /api/auth/signup'].body(rules),
        response: {
          201: apiRoutes['POST /api/auth/signup'].response,
          ...errorResponses({
            400: 'The body is not valid',
            403: 'Sign-up with a password is off: students sign in with the campus (PASSWORD_SIGNUP)',
            409: 'The address already has an account',
            429: 'Too many sign-ups: solve a challenge (`challengeRequired`)',
          }),
        },
      },
      preHandler: [
        async (request) => {
          await addressAttempt(app, request, 'signup:ip', limits.signUpPerIp);
        },
        perAddress('signup'),
      ],
    },
    async (request, reply) => {
      if (!app.config.passwordSignUp) {
        throw forbidden(`Sign up with ${app.config.sso?.name ?? 'your campus'} instead`);
      }
      await signUp(accounts, request.body);
      return reply.status(201).send({ success: true as const, message: AUTH_MESSAGES.signedUp });
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        body: apiRoutes['POST /api/auth/verify-email'].body,
        response: {
          200: apiRoutes['POST /api/auth/verify-email'].response,
          ...errorResponses({
            400: 'The link is not valid or out of date',
            409: 'The new address of an e-mail change has an account meanwhile',
          }),
        },
      },
    },
    async (request) => {
      const outcome = await verifyEmail(accounts, request.body.token);
      if (outcome === 'alreadyVerified') {
        return {
          success: true as const,
          alreadyVerified: true as const,
          message: AUTH_MESSAGES.alreadyVerified,
        };
      }
      const message =
        outcome === 'changed' ? AUTH_MESSAGES.emailChanged : AUTH_MESSAGES.emailVerified;
      return { success: true as const, message };
    },
  );

  app.post(
    '/resend-verification',
    {
      schema: {
        body: apiRoutes['POST /api/auth/resend-verification'].body,
        response: { 200: apiRoutes['POST /api/auth/resend-verification'].response, ...mailLimited },
      },
      ...mailLimits('resend-verification'),
    },
    async (request) => {
      await resendVerification(accounts, request.body.email);
      return { success: true as const, message: AUTH_MESSAGES.verificationResent };
    },
  );

  app.post(
    '/signin',
    {
      schema: {
        body: apiRoutes['POST /api/auth/signin'].body,
        response: {
          200: apiRoutes['POST /api/auth/signin'].response,
          ...errorResponses({
            400: 'The body is not valid',
            401: 'Wrong e-mail or password',
            403: 'E-mail not verified, or account suspended',
            429: 'Too many attempts: solve a challenge (`challengeRequired`)',
          }),
        },
      },
    },
    (request, reply) =>
      signInsInTurn(async () => {
        const { email, password } = request.body;
        // Only failures stay counted: a wrong pair (401) is one; anything else is given back.
        const attempt = await beginSignIn(app, request, reply, email);
        let user;
        try {
          user = await checkCredentials(app.database.db, email, password);
        } catch (error) {
          if (!(error instanceof AppError && error.statusCode === 401)) {
            await attempt.succeeded(reply, null);
          }
          throw error;
        }
        await app.sessions.start(reply, user.id);
        await attempt.succeeded(reply, user.id);
        return {
          success: true as const,
          ...toCurrentUser(user, isModerator(app.config.trust, user)),
        };
      }),
  );

  app.get(
    '/me',
    {
      preHandler: app.requireUser,
      schema: {
        response: {
          200: apiRoutes['GET /api/auth/me'].response,
          ...errorResponses(REQUIRE_USER_ERRORS),
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...toCurrentUser(currentUser(request), isModerator(app.config.trust, currentUser(request))),
    }),
  );

  // The web app asks this on every load: a signed-out visitor is an answer (null), not a failed
  // request, so browsers log no error. Never cached: the answer depends on the cookie.
  app.get(
    '/session',
    { schema: { response: { 200: apiRoutes['GET /api/auth/session'].response } } },
    async (request, reply) => {
      const session = await app.sessions.read(request);
      reply.header('Cache-Control', 'no-store');
      return {
        success: true as const,
        user: session
          ? toCurrentUser(session.user, isModerator(app.config.trust, session.user))
          : null,
      };
    },
  );

  // POST only: a GET changes nothing (a link, an image or a prefetch must not sign anyone out), so
  // GET /signout is the API's 404; the same-origin check refuses a cross-site POST.
  app.post(
    '/signout',
    {
      schema: {
        response: {
          200: apiRoutes['POST /api/auth/signout'].response,
          ...errorResponses({ 403: 'A cross-site request' }),
        },
      },
    },
    async (request, reply) => {
      await app.sessions.end(request, reply);
      return { success: true as const, message: AUTH_MESSAGES.signedOut };
    },
  );

  app.post(
    '/forgot-password',
    {
      schema: {
        body: apiRoutes['POST /api/auth/forgot-password'].body,
        response: { 200: apiRoutes['POST /api/auth/forgot-password'].response, ...mailLimited },
      },
      ...mailLimits('forgot-password'),
    },
    async (request) => {
      requestPasswordReset(accounts, request.body.email);
      return { success: true as const, message: AUTH_MESSAGES.resetRequested };
    },
  );

  // Only bad tokens count, per IP: guessing links is refused, a real link always works.
  const badResetTokens = perIp('reset-password:bad-token', limits.signInPerIp);
  app.post(
    '/reset-password/:token',
    {
      schema: {
        // Any string: an unknown token of any length is the documented invalid-link 400 (and counts).
        params: apiRoutes['POST /api/auth/reset-password/:token'].params,
        body: apiRoutes['POST /api/auth/reset-password/:token'].body,
        response: {
          200: apiRoutes['POST /api/auth/reset-password/:token'].response,
          ...errorResponses({
            400: 'The link is not valid or out of date, or the password is too weak',
            429: 'Too many bad links from this network',
          }),
        },
      },
    },
    async (request, reply) => {
      try {
        await resetPassword(accounts, request.params.token, request.body.password);
      } catch (error) {
        if (error instanceof AppError && error.message === AUTH_MESSAGES.resetInvalid) {
          await badResetTokens(request, reply);
        }
        throw error;
      }
      return { success: true as const, message: AUTH_MESSAGES.passwordReset };
    },
  );
}
