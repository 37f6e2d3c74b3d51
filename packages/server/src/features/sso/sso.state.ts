import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';

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

function keyOf(app: FastifyInstance): Uint8Array {
  return createHmac('sha256', app.config.sessionSecret).update('sso-state').digest();
}

function cookieOptions(app: FastifyInstance, crossSitePost: boolean, maxAge?: number) {
  // A SAML response is POSTed from the IdP's site: only a SameSite=None (Secure) cookie goes
  // along. Over plain http (development, tests) the IdP is on the same site anyway.
  const none = crossSitePost && app.config.secureCookies;
  return {
    path: '/api/sso',
    httpOnly: true,
    secure: app.config.secureCookies,
    sameSite: none ? ('none' as const) : ('lax' as const),
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

async function sign(app: FastifyInstance, audience: string, payload: object, ttl: number) {
  return new SignJWT({ ...payload })
    .setProtectedHeader({ alg: ALGORITHM })
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(keyOf(app));
}

async function verify<T>(app: FastifyInstance, audience: string, token: string | undefined) {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(app), { algorithms: [ALGORITHM], audience });
    return payload as T;
  } catch {
    return null;
  }
}

export async function setFlow(app: FastifyInstance, reply: FastifyReply, flow: Flow) {
  const crossSite = app.config.sso?.protocol === 'saml';
  const token = await sign(app, `flow:${app.config.sso?.protocol}`, flow, FLOW_TTL_SECONDS);
  reply.setCookie(FLOW_COOKIE, token, cookieOptions(app, crossSite, FLOW_TTL_SECONDS));
}

/** The request's flow (signed by us, for this protocol, not expired), and the cookie cleared. */
export async function takeFlow(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Flow | null> {
  const crossSite = app.config.sso?.protocol === 'saml';
  reply.clearCookie(FLOW_COOKIE, cookieOptions(app, crossSite));
  const flow = await verify<Flow>(
    app,
    `flow:${app.config.sso?.protocol}`,
    request.cookies[FLOW_COOKIE],
  );
  return flow && typeof flow.state === 'string' && typeof flow.returnTo === 'string' ? flow : null;
}

export async function setPending(
  app: FastifyInstance,
  reply: FastifyReply,
  identity: Omit<PendingIdentity, 'id'>,
) {
  const token = await sign(app, 'pending', { ...identity, id: randomUUID() }, PENDING_TTL_SECONDS);
  reply.setCookie(PENDING_COOKIE, token, cookieOptions(app, false, PENDING_TTL_SECONDS));
}

export async function readPending(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<PendingIdentity | null> {
  const pending = await verify<PendingIdentity>(app, 'pending', request.cookies[PENDING_COOKIE]);
  return pending && typeof pending.id === 'string' && typeof pending.email === 'string'
    ? pending
    : null;
}

export function clearPending(app: FastifyInstance, reply: FastifyReply) {
  reply.clearCookie(PENDING_COOKIE, cookieOptions(app, false));
}

/** How long a pending first sign-in may take, for its single-use mark. */
export const PENDING_TTL_MS = PENDING_TTL_SECONDS * 1000;
