import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOMParser, type Element } from '@xmldom/xmldom';
import type { CasConfig } from '../../config/sso-config';
import type { Identity, SignOnProtocolDeps } from './sso.accounts';
import { claimOnce } from './sso.repository';

const CAS_NS = 'http://www.yale.edu/tp/cas';
const TICKET_MEMORY_MS = 24 * 60 * 60_000;
const VALIDATE_TIMEOUT_MS = 5_000;

/** The user and attributes of a CAS 3.0 `serviceResponse`, or null for anything but success. */
export function parseServiceResponse(
  xml: string,
): { user: string; attributes: Map<string, string[]> } | null {
  let doc;
  try {
    doc = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
  } catch {
    return null;
  }
  const success = doc.getElementsByTagNameNS(CAS_NS, 'authenticationSuccess')[0];
  const user = success?.getElementsByTagNameNS(CAS_NS, 'user')[0]?.textContent?.trim();
  if (!success || !user) return null;
  const attributes = new Map<string, string[]>();
  const holder = success.getElementsByTagNameNS(CAS_NS, 'attributes')[0];
  for (const node of Array.from(holder?.childNodes ?? [])) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    const name = element.localName ?? '';
    attributes.set(name, [...(attributes.get(name) ?? []), (element.textContent ?? '').trim()]);
  }
  return { user, attributes };
}

/**
 * CAS 3.0: `/login` with the exact service URL, then `/p3/serviceValidate` (with attributes) from
 * the server. The browser that comes back must carry the flow cookie; each ticket is used once
 * across every app server (the CAS server also refuses a second validation).
 */
export function createCas(
  { db, cookies, sso, publicUrl }: SignOnProtocolDeps,
  settings: CasConfig,
) {
  const serviceUrl = `${publicUrl}/api/sso/cas/callback`;
  return {
    async start(reply: FastifyReply, returnTo: string): Promise<string> {
      await cookies.setFlow(reply, { state: randomBytes(24).toString('base64url'), returnTo });
      return `${settings.baseUrl}/login?service=${encodeURIComponent(serviceUrl)}`;
    },

    async callback(
      request: FastifyRequest,
      reply: FastifyReply,
      ticket: string | undefined,
    ): Promise<{ identity: Identity; returnTo: string } | null> {
      const flow = await cookies.takeFlow(request, reply);
      if (!flow || !ticket) return null;
      const once = new Date(Date.now() + TICKET_MEMORY_MS);
      if (!(await claimOnce(db, `cas-ticket:${ticket}`, once))) return null;
      try {
        const url = new URL(`${settings.baseUrl}/p3/serviceValidate`);
        url.searchParams.set('service', serviceUrl);
        url.searchParams.set('ticket', ticket);
        const res = await fetch(url, {
          redirect: 'error',
          signal: AbortSignal.timeout(VALIDATE_TIMEOUT_MS),
        });
        const answer = res.ok ? parseServiceResponse(await res.text()) : null;
        if (!answer) return null;
        const { attributes } = sso;
        const values = (names: string[]) => names.flatMap((n) => answer.attributes.get(n) ?? []);
        return {
          returnTo: flow.returnTo,
          identity: {
            provider: `cas:${settings.baseUrl}`,
            subject: answer.user,
            email: values(attributes.email)[0] ?? null,
            emailVerified: null,
            givenName: values(attributes.givenName)[0] ?? '',
            familyName: values(attributes.familyName)[0] ?? '',
            affiliations: values(attributes.affiliation),
          },
        };
      } catch (error) {
        request.log.warn({ err: error }, 'CAS sign-in refused');
        return null;
      }
    },

    logoutUrl: () => Promise.resolve(`${settings.baseUrl}/logout`),
  };
}
