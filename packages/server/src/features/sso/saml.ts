import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { DOMParser, onErrorStopParsing, type Element } from '@xmldom/xmldom';
import type { SamlConfig } from '../../config/sso-config';
import { claimValues } from './oidc';
import type { Identity, SignOnProtocolDeps } from './sso.accounts';
import { claimOnce, readOnce, removeOnce } from './sso.repository';

const REQUEST_TTL_MS = 10 * 60_000;
/** How long a used assertion id is remembered: far beyond any assertion's validity. */
const ASSERTION_MEMORY_MS = 24 * 60 * 60_000;
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** A node's type for `<!DOCTYPE …>`. */
const DOCUMENT_TYPE_NODE = 10;

type Xml = Record<string, unknown> & { $?: Record<string, string> };
const first = (value: unknown): Xml | undefined =>
  Array.isArray(value) ? (value[0] as Xml | undefined) : undefined;

/**
 * What the library does not check of the response element itself (its `idpIssuer` covers logout
 * messages only): refused when it carries a DTD; its Destination and Issuer, and whether it is
 * signed (then SAML bindings 3.5.5.2 require a Destination).
 */
function readResponse(samlResponse: string) {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
  if (doc.doctype || Array.from(doc.childNodes).some((n) => n.nodeType === DOCUMENT_TYPE_NODE)) {
    throw new Error('SAML response with a document type declaration (no DTD is accepted)');
  }
  const root = doc.documentElement;
  const child = (ns: string, name: string) =>
    Array.from(root?.childNodes ?? []).find(
      (n): n is Element => (n as Element).namespaceURI === ns && (n as Element).localName === name,
    );
  return {
    destination: root?.getAttribute('Destination') ?? null,
    issuer: child(ASSERTION_NS, 'Issuer')?.textContent ?? null,
    signed: child(DSIG_NS, 'Signature') !== undefined,
  };
}

/**
 * SAML 2.0 with @node-saml/node-saml (>= 5.1.0): signed assertions required, the audience,
 * InResponseTo (the request ids in PostgreSQL, for any app server) and the times (bounded skew)
 * checked by the library; no DTD, the response's Destination, the issuer of the response and of
 * the assertion, the recipient and one-time use of each assertion here.
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

  /** Why a validly signed response is still refused, or null. */
  function refusalOf(
    response: ReturnType<typeof readResponse>,
    assertionIssuer: string | undefined,
    facts: ReturnType<typeof assertionFacts>,
  ) {
    // SAML core 3.2.2: a Destination other than where it was received is discarded.
    const destinationNeeded = response.signed || response.destination !== null;
    if (destinationNeeded && response.destination !== acsUrl) {
      return 'SAML response for another destination';
    }
    // The Web SSO profile: the response's issuer (when named) and the assertion's are the IdP.
    if (response.issuer !== null && response.issuer !== settings.idpEntityId) {
      return 'SAML response from another issuer';
    }
    if (assertionIssuer !== settings.idpEntityId) return 'SAML assertion from another issuer';
    if (facts.recipient !== acsUrl || !facts.id) return 'SAML assertion for another recipient';
    return null;
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
        const response = readResponse(SAMLResponse);
        const { profile } = await saml.validatePostResponseAsync({ SAMLResponse });
        if (!profile) return null;
        const facts = assertionFacts(profile);
        const refusal = refusalOf(response, profile.issuer, facts);
        if (refusal) {
          request.log.warn(
            {
              destination: response.destination,
              responseIssuer: response.issuer,
              assertionIssuer: profile.issuer,
              recipient: facts.recipient,
            },
            refusal,
          );
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
