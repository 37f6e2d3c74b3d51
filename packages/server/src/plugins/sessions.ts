import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { UserRow } from '../db/schema';
import {
  deleteSession,
  deleteSessionsOfUser,
  findLiveSession,
  insertSession,
} from '../db/sessions.repository';
import { forbidden, unauthorized } from '../lib/errors';
import { importHmacKey } from '../lib/hmac-key';

export const SESSION_COOKIE = 'cb_session';
/** Session tokens whose signature a server keeps as checked (each ~300 bytes with its claims). */
const VERIFIED_TOKENS = 10_000;
const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;
const ALGORITHM = 'HS256';

/** What a session token says, once its signature is checked: the session, the user, the expiry (s). */
interface SessionClaims {
  sid: string;
  sub: string;
  exp: number;
}

export interface SessionUser {
  user: UserRow;
  sessionId: string;
}

export interface Sessions {
  /** Starts a session for the user and sets the cookie. */
  start(reply: FastifyReply, userId: string): Promise<string>;
  /** Ends the request's session server-side and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Ends every session of a user, except `keepSessionId` if given. */
  endAllForUser(userId: string, keepSessionId?: string): Promise<void>;
  /** The signed-in user of the request, or null (cached per request). */
  read(request: FastifyRequest): Promise<SessionUser | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
    /** preHandler: 401 unless signed in. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** preHandler: 401 unless signed in, 403 unless the school e-mail is verified. */
    requireVerifiedUser: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    session: SessionUser | null | undefined;
  }
}

/** Signed (HS256, fixed) session tokens in an httpOnly SameSite=Lax cookie, revocable by row. */
export default fp(
  async function sessionsPlugin(app: FastifyInstance) {
    const key = await importHmacKey(new TextEncoder().encode(app.config.sessionSecret));
    // A session's token is sent again with every request of its visit: its signature is checked
    // once, then its claims are kept (until its expiry, within ten minutes, for the most recent
    // VERIFIED_TOKENS tokens). Only a valid token is kept; its session row is read every time, so
    // a session ended anywhere stops at once.
    const verifiedTokens = new LRUCache<string, SessionClaims>({
      max: VERIFIED_TOKENS,
      ttl: 10 * 60_000,
    });
    const { db } = app.database;
    const cookieOptions = {
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: app.config.secureCookies,
    };

    app.decorateRequest('session', undefined);

    const pendingReads = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();
    async function readSession(request: FastifyRequest): Promise<SessionUser | null> {
      const token = request.cookies[SESSION_COOKIE];
      if (!token) return null;
      let claims = verifiedTokens.get(token);
      if (claims && claims.exp * 1000 <= Date.now()) {
        verifiedTokens.delete(token);
        claims = undefined;
      }
      if (!claims) {
        try {
          const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM] });
          if (!isUuid(payload.sid) || !isUuid(payload.sub) || payload.exp === undefined)
            return null;
          claims = { sid: payload.sid, sub: payload.sub, exp: payload.exp };
        } catch {
          return null; // bad signature, expired, malformed: simply not signed in
        }
        verifiedTokens.set(token, claims);
      }
      // Not caught: a database that does not answer is a 503, not a signed-out visitor.
      return (await findLiveSession(db, claims.sid, claims.sub)) ?? null;
    }

    const sessionsApi: Sessions = {
      async start(reply, userId) {
        const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
        const sessionId = await insertSession(db, userId, expiresAt);
        const token = await new SignJWT({ sid: sessionId })
          .setProtectedHeader({ alg: ALGORITHM })
          .setSubject(userId)
          .setIssuedAt()
          .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
          .sign(key);
        reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
        return sessionId;
      },
      async end(request, reply) {
        const current = await sessionsApi.read(request);
        if (current) await deleteSession(db, current.sessionId);
        request.session = null;
        reply.clearCookie(SESSION_COOKIE, cookieOptions);
      },
      async endAllForUser(userId, keepSessionId) {
        await deleteSessionsOfUser(db, userId, keepSessionId);
      },
      read(request) {
        if (request.session !== undefined) return Promise.resolve(request.session);
        // Two reads at once (a page loading its data and its user side by side) share one lookup.
        let pending = pendingReads.get(request);
        if (!pending) {
          pending = readSession(request).then((session) => {
            request.session = session;
            return session;
          });
          pendingReads.set(request, pending);
          void pending.finally(() => pendingReads.delete(request)).catch(() => undefined);
        }
        return pending;
      },
    };

    app.decorate('sessions', sessionsApi);
    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!(await sessionsApi.read(request))) throw unauthorized();
    });
    app.decorate('requireVerifiedUser', async (request: FastifyRequest) => {
      const current = await sessionsApi.read(request);
      if (!current) throw unauthorized();
      if (!current.user.emailVerifiedAt) {
        throw forbidden('Please verify your school e-mail first: use the link we sent you');
      }
    });
  },
  { name: 'sessions', dependencies: ['database'] },
);

/** What a route behind requireUser may answer for it, as errorResponses documents it. */
export const REQUIRE_USER_ERRORS = { 401: 'Not signed in' } as const;
/** What a route behind requireVerifiedUser may answer for it, as errorResponses documents it. */
export const REQUIRE_VERIFIED_USER_ERRORS = {
  ...REQUIRE_USER_ERRORS,
  403: 'E-mail not verified',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** The signed-in user of a request that passed requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.session) throw unauthorized();
  return request.session.user;
}
