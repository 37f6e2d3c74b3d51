import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  emailOnlySchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
} from '@campus-books/common/account.schemas';
import { forbidden } from '../../lib/errors';
import { byEmail, byIp } from '../../plugins/rate-limit';
import { currentUser } from '../../plugins/sessions';
import { toCurrentUser } from '../users/current-user';
import { AUTH_MESSAGES } from './auth.messages';
import { requestPasswordReset, resetPassword } from './password-reset.service';
import { checkCredentials } from './sign-in.service';
import { resendVerification, signUp, verifyEmail } from './sign-up.service';

const tokenSchema = z.string().trim().min(1).max(200);

/** /api/auth: sign-up, e-mail verification, sign-in and out, password reset (docs/api/accounts.md). */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limits = app.config.rateLimits;
  const rules = {
    schoolEmailDomain: app.config.schoolEmailDomain,
    groupmeLinkPrefix: app.config.groupmeLinkPrefix,
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

  app.post(
    '/signup',
    {
      schema: { body: signUpSchema(rules) },
      onRequest: perIp('signup', limits.signUpPerIp),
      preHandler: perAddress('signup'),
    },
    async (request, reply) => {
      await signUp(app, request.body);
      return reply.status(201).send({ success: true, message: AUTH_MESSAGES.signedUp });
    },
  );

  app.post(
    '/verify-email',
    { schema: { body: z.object({ token: tokenSchema }) } },
    async (request) => {
      const outcome = await verifyEmail(app, request.body.token);
      const message =
        outcome === 'changed' ? AUTH_MESSAGES.emailChanged : AUTH_MESSAGES.emailVerified;
      return { success: true, message };
    },
  );

  app.post(
    '/resend-verification',
    { schema: { body: emailOnlySchema }, ...mailLimits('resend-verification') },
    async (request) => {
      await resendVerification(app, request.body.email);
      return { success: true, message: AUTH_MESSAGES.verificationResent };
    },
  );

  app.post(
    '/signin',
    {
      schema: { body: signInSchema },
      onRequest: perIp('signin', limits.signInPerIp),
      preHandler: perAddress('signin', limits.signInPerAccount),
    },
    async (request, reply) => {
      const user = await checkCredentials(app, request.body.email, request.body.password);
      await app.sessions.start(reply, user.id);
      return { success: true, ...toCurrentUser(user) };
    },
  );

  app.get('/me', { preHandler: app.requireUser }, async (request) => ({
    success: true,
    ...toCurrentUser(currentUser(request)),
  }));

  // The web app asks this on every load: a signed-out visitor is an answer (null), not a failed
  // request, so browsers log no error. Never cached: the answer depends on the cookie.
  app.get('/session', async (request, reply) => {
    const session = await app.sessions.read(request);
    reply.header('Cache-Control', 'no-store');
    return { success: true, user: session ? toCurrentUser(session.user) : null };
  });

  const signOut = async (request: FastifyRequest, reply: FastifyReply) => {
    await app.sessions.end(request, reply);
    return { success: true, message: AUTH_MESSAGES.signedOut };
  };
  // GET is the spec's; a browser navigating here from another site must not sign anyone out.
  app.get('/signout', async (request, reply) => {
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw forbidden('Cross-site requests are not allowed');
    }
    return signOut(request, reply);
  });
  app.post('/signout', signOut);

  app.post(
    '/forgot-password',
    { schema: { body: emailOnlySchema }, ...mailLimits('forgot-password') },
    async (request) => {
      await requestPasswordReset(app, request.body.email);
      return { success: true, message: AUTH_MESSAGES.resetRequested };
    },
  );

  app.post(
    '/reset-password/:token',
    { schema: { params: z.object({ token: tokenSchema }), body: resetPasswordSchema } },
    async (request) => {
      await resetPassword(app, request.params.token, request.body.password);
      return { success: true, message: AUTH_MESSAGES.passwordReset };
    },
  );
}
