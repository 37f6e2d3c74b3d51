import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { SamlConfig } from '../../config/sso-config';
import { claimValues } from './oidc';
import type { Identity, SignOnProtocolDeps } from './sso.accounts';
import { claimOnce, readOnce, removeOnce } from './sso.repository';

const REQUEST_TTL_MS = 10 * 60_000;
/** How long a used assertion id is remembered: far beyond any assertion's validity. */
const ASSERTION_MEMORY_MS = 24 * 60 * 60_000;
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

type Xml = Record<string, unknown> & { $?: Record<string, string> };
const first = (value: unknown): Xml | undefined =>
  Array.isArray(value) ? (value[0] as Xml | undefined) : undefined;

/**
 * SAML 2.0 with @node-saml/node-saml (>= 5.1.0): signed assertions required, the IdP's issuer,
 * the audience, InResponseTo (the request ids in PostgreSQL, for any app server) and the times
 * (bounded skew) checked by the library; the recipient and one-time use of each assertion here.
 */
export function createSaml(
  { db, cookies, sso, publicUrl }: SignOnProtocolDeps,
  settings: SamlConfig,
) {
  const acsUrl = `${publicUrl}/api/sso/saml/acs`;
  const cacheProvider: CacheProvider = {
    async saveAsync(key, value) {
      await claimOnce(db, `saml-request:${key}`, new Date(Date.now() + REQUEST_TTL_MS), value);
      return { value, createdAt: Date.now() };
    },
    getAsync: (key) => readOnce(db, `saml-request:${key}`),
    removeAsync: async (key) => (key ? removeOnce(db, `saml-request:${key}`) : null),
  };
  const saml = new SAML({
    callbackUrl: acsUrl,
    entryPoint: settings.idpSsoUrl,
    issuer: settings.spEntityId,
    audience: settings.spEntityId,
    idpCert: settings.idpCerts,
    idpIssuer: settings.idpEntityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    acceptedClockSkewMs: settings.clockSkewMs,
    cacheProvider,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });

  /** The recipient the signed assertion names, and its id. */
  function assertionFacts(profile: Profile) {
    const assertion =
      first((profile.getAssertion?.() as Xml | undefined)?.Assertion) ??
      ((profile.getAssertion?.() as Xml | undefined)?.Assertion as Xml | undefined);
    const subject = first(assertion?.Subject);
    const confirmation = first(subject?.SubjectConfirmation);
    const data = first(confirmation?.SubjectConfirmationData);
    return { id: assertion?.$?.ID, recipient: data?.$?.Recipient };
  }

  return {
    metadata: () => saml.generateServiceProviderMetadata(null, null),

    async start(reply: FastifyReply, returnTo: string): Promise<string> {
      const relayState = randomBytes(24).toString('base64url');
      await cookies.setFlow(reply, { state: relayState, returnTo });
      return saml.getAuthorizeUrlAsync(relayState, undefined, {});
    },

    async callback(
      request: FastifyRequest,
      reply: FastifyReply,
      body: { SAMLResponse?: string; RelayState?: string },
    ): Promise<{ identity: Identity; returnTo: string } | null> {
      const flow = await cookies.takeFlow(request, reply);
      const { SAMLResponse, RelayState } = body;
      if (!flow || !SAMLResponse || RelayState !== flow.state) return null;
      try {
        const { profile } = await saml.validatePostResponseAsync({ SAMLResponse });
        if (!profile) return null;
        const facts = assertionFacts(profile);
        if (facts.recipient !== acsUrl || !facts.id) {
          request.log.warn({ recipient: facts.recipient }, 'SAML assertion for another recipient');
          return null;
        }
        const once = new Date(Date.now() + ASSERTION_MEMORY_MS);
        if (!(await claimOnce(db, `saml-assertion:${facts.id}`, once))) return null;
        const { attributes } = sso;
        const values = (names: string[]) => names.flatMap((n) => claimValues(profile[n]));
        const subject =
          values(attributes.subject)[0] ??
          (profile.nameIDFormat === PERSISTENT ? profile.nameID : undefined);
        if (!subject) return null;
        return {
          returnTo: flow.returnTo,
          identity: {
            provider: `saml:${settings.idpEntityId}`,
            subject,
            email: values(attributes.email)[0] ?? null,
            emailVerified: null,
            givenName: values(attributes.givenName)[0] ?? '',
            familyName: values(attributes.familyName)[0] ?? '',
            affiliations: values(attributes.affiliation),
          },
        };
      } catch (error) {
        request.log.warn({ err: error }, 'SAML sign-in refused');
        return null;
      }
    },

    logoutUrl: () => Promise.resolve(settings.idpLogoutUrl),
  };
}
