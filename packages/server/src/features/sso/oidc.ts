import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { OidcConfig } from '../../config/sso-config';
import type { Identity, SignOnProtocolDeps } from './sso.accounts';
import { claimOnce } from './sso.repository';

/** A claim as a list of strings (a string, an array of strings, or nothing). */
export function claimValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

const firstClaim = (claims: Record<string, unknown>, names: string[]) =>
  names.map((n) => claimValues(claims[n])[0]).find((v) => v !== undefined) ?? null;

/** How long a used `state` is remembered (far longer than a flow lives). */
const STATE_MEMORY_MS = 24 * 60 * 60_000;

/**
 * OpenID Connect with openid-client: discovery from the issuer, the authorization code flow with
 * PKCE (S256), `state` and `nonce`, and the ID token's signature (keys from the provider's JWKS),
 * issuer, audience and times checked by the library. Each `state` is used once across every app server (sso_once).
 */
export function createOidc(
  { db, cookies, sso, publicUrl }: SignOnProtocolDeps,
  settings: OidcConfig,
) {
  const redirectUri = `${publicUrl}/api/sso/oidc/callback`;
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
        {
          // The ID token's signature is checked against the provider's JWKS (fetched and cached
          // by the library), not taken on the word of the TLS connection it came over.
          execute: [
            client.enableNonRepudiationChecks,
            ...(settings.issuer.startsWith('http://') ? [client.allowInsecureRequests] : []),
          ],
        },
      )
      .catch((error: unknown) => {
        discovered = undefined; // asked again on the next sign-in
        throw error;
      });
    return discovered;
  };

  return {
    /** The provider's authorization URL for a new flow (the flow's checks go in a cookie). */
    async start(reply: FastifyReply, returnTo: string): Promise<string> {
      const config = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      await cookies.setFlow(reply, { state, nonce, codeVerifier, returnTo });
      return client
        .buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: settings.scopes,
          code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        })
        .toString();
    },

    /** The identity of a callback, or null when any check fails (logged, never shown). */
    async callback(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ identity: Identity; returnTo: string } | null> {
      const flow = await cookies.takeFlow(request, reply);
      if (!flow?.codeVerifier || !flow.nonce) return null;
      const config = await configuration();
      if (!(await claimOnce(db, `oidc-state:${flow.state}`, inADay()))) return null;
      try {
        const tokens = await client.authorizationCodeGrant(
          config,
          new URL(request.url, publicUrl),
          {
            pkceCodeVerifier: flow.codeVerifier,
            expectedState: flow.state,
            expectedNonce: flow.nonce,
            idTokenExpected: true,
          },
        );
        let claims: Record<string, unknown> = { ...tokens.claims()! };
        const { attributes } = sso;
        const wanted = [attributes.email, attributes.givenName, attributes.familyName];
        if (wanted.some((names) => firstClaim(claims, names) === null)) {
          const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
          claims = { ...info, ...claims };
        }
        return {
          returnTo: flow.returnTo,
          identity: {
            provider: `oidc:${config.serverMetadata().issuer}`,
            subject: String(claims.sub),
            email: firstClaim(claims, attributes.email),
            emailVerified:
              typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
            givenName: firstClaim(claims, attributes.givenName) ?? '',
            familyName: firstClaim(claims, attributes.familyName) ?? '',
            affiliations: attributes.affiliation.flatMap((n) => claimValues(claims[n])),
          },
        };
      } catch (error) {
        request.log.warn({ err: error }, 'OIDC sign-in refused');
        return null;
      }
    },

    /** The provider's end-session URL, when it offers one. */
    async logoutUrl(): Promise<string | null> {
      const config = await configuration();
      if (!config.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(config, { client_id: settings.clientId }).toString();
    },
  };
}

const inADay = () => new Date(Date.now() + STATE_MEMORY_MS);
