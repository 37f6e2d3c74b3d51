import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { SsoConfig } from '../../config/sso-config';

/**
 * What a sign-on carries between its start and its callback, and between the callback and the
 * finishing step of a first sign-in: HS256-signed, short-lived, httpOnly cookies under /api/sso,
 * so the callback may land on any app server that shares SESSION_SECRET.
 */
const ALGORITHM = 'HS256';
export const FLOW_COOKIE = 'cb_sso_flow';
export const PENDING_COOKIE = 'cb_sso_pending';
const FLOW_TTL_SECONDS = 10 * 60;
const PENDING_TTL_SECONDS = 30 * 60;

/** One sign-on in flight: the values the callback checks, and where the student was going. */
export interface Flow {
  /** OIDC `state`; the SAML RelayState; a random binding for CAS. */
  state: string;
  nonce?: string;
  codeVerifier?: string;
  returnTo: string;
}

/** Who the provider said the student is, when no account is linked yet (first sign-in). */
export interface PendingIdentity {
  provider: string;
  subject: string;
  email: string;
  givenName: string;
  familyName: string;
  returnTo: string;
  /** Claimed once when the account is created, so the step cannot run twice. */
  id: string;
}

/** What the sign-on's cookies are signed and set with. */
export interface SsoCookieSettings {
  sessionSecret: string;
  secureCookies: boolean;
  protocol: SsoConfig['protocol'];
  /**
   * The campus's schema (decision 024): another campus's cookies are signed with another key, so a
   * flow or a first sign-in started on one campus's host is refused on every other's. `public`
   * (the default campus) keeps the key of a single-campus installation.
   */
  campus?: string;
}

/**
 * The sign-on's cookies, with their key derived once from SESSION_SECRET (and the campus): the flow
 * between a start and its callback, and a first sign-in's pending step.
 */
export function ssoCookies({ sessionSecret, secureCookies, protocol, campus }: SsoCookieSettings) {
  const purpose = campus && campus !== 'public' ? `sso-state:${campus}` : 'sso-state';
  const key = createHmac('sha256', sessionSecret).update(purpose).digest();
  const flowAudience = `flow:${protocol}`;

  function cookieOptions(crossSitePost: boolean, maxAge?: number) {
    // A SAML response is POSTed from the IdP's site: only a SameSite=None (Secure) cookie goes
    // along. Over plain http (development, tests) the IdP is on the same site anyway.
    const none = crossSitePost && secureCookies;
    return {
      path: '/api/sso',
      httpOnly: true,
      secure: secureCookies,
      sameSite: none ? ('none' as const) : ('lax' as const),
      ...(maxAge === undefined ? {} : { maxAge }),
    };
  }
  const flowCrossSite = protocol === 'saml';

  async function sign(audience: string, payload: object, ttl: number) {
    return new SignJWT({ ...payload })
      .setProtectedHeader({ alg: ALGORITHM })
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${ttl}s`)
      .sign(key);
  }

  async function verify<T>(audience: string, token: string | undefined) {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], audience });
      return payload as T;
    } catch {
      return null;
    }
  }

  return {
    async setFlow(reply: FastifyReply, flow: Flow) {
      const token = await sign(flowAudience, flow, FLOW_TTL_SECONDS);
      reply.setCookie(FLOW_COOKIE, token, cookieOptions(flowCrossSite, FLOW_TTL_SECONDS));
    },

    /** The request's flow (signed by us, for this protocol, not expired), and the cookie cleared. */
    async takeFlow(request: FastifyRequest, reply: FastifyReply): Promise<Flow | null> {
      reply.clearCookie(FLOW_COOKIE, cookieOptions(flowCrossSite));
      const flow = await verify<Flow>(flowAudience, request.cookies[FLOW_COOKIE]);
      return flow && typeof flow.state === 'string' && typeof flow.returnTo === 'string'
        ? flow
        : null;
    },

    async setPending(reply: FastifyReply, identity: Omit<PendingIdentity, 'id'>) {
      const token = await sign('pending', { ...identity, id: randomUUID() }, PENDING_TTL_SECONDS);
      reply.setCookie(PENDING_COOKIE, token, cookieOptions(false, PENDING_TTL_SECONDS));
    },

    async readPending(request: FastifyRequest): Promise<PendingIdentity | null> {
      const pending = await verify<PendingIdentity>('pending', request.cookies[PENDING_COOKIE]);
      return pending && typeof pending.id === 'string' && typeof pending.email === 'string'
        ? pending
        : null;
    },

    clearPending(reply: FastifyReply) {
      reply.clearCookie(PENDING_COOKIE, cookieOptions(false));
    },
  };
}
export type SsoCookies = ReturnType<typeof ssoCookies>;

/** How long a pending first sign-in may take, for its single-use mark. */
export const PENDING_TTL_MS = PENDING_TTL_SECONDS * 1000;
