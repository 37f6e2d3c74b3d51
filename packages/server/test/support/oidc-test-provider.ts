import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** The claims a test account at the provider has (any OIDC claim). */
export type TestClaims = Record<string, unknown>;

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name; a test adds its own. */
  accounts: Map<string, TestClaims>;
  /**
   * When set, the token endpoint answers with an ID token the test forges (signed with the
   * provider's own key) instead of the provider's: another issuer, another nonce…
   */
  forgeIdToken: ((nonce: string) => Record<string, unknown>) | null;
  /**
   * How a forged ID token is signed: with the provider's key (the default), with a key that is not
   * in the provider's JWKS (under the provider's `kid`), or with a signature of random bytes.
   */
  forgedSignature: 'provider-key' | 'foreign-key' | 'garbage';
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a free local port, for tests only. Its login page is a
 * one-field form: the login name of a test account, then consent is granted at once.
 */
export async function startTestOidcProvider(
  redirectUris: string[],
  port = 0,
): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, TestClaims>();
  const clientId = 'campus-books';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['a-cookie-key-of-the-test-provider'] },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
      eduperson: ['eduperson_scoped_affiliation'],
    },
    scopes: ['openid', 'email', 'profile', 'eduperson'],
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const claims = accounts.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...claims }) };
    },
  });
  const handle = provider.callback();
  const state: TestOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    forgeIdToken: null,
    forgedSignature: 'provider-key',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const nonces = new Map<string, string>();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname.startsWith('/interaction/')) return interaction(req, res, url);
      if (url.pathname === '/test/accounts' && req.method === 'POST') {
        // For a browser test in another process: adds {login: claims} accounts.
        let body = '';
        for await (const chunk of req) body += String(chunk);
        for (const [login, claims] of Object.entries(
          JSON.parse(body) as Record<string, TestClaims>,
        )) {
          accounts.set(login, claims);
        }
        res.writeHead(204);
        res.end();
        return;
      }
      if (url.pathname === '/auth') {
        nonces.set('last', url.searchParams.get('nonce') ?? '');
      }
      if (url.pathname === '/token' && state.forgeIdToken) {
        const claims = state.forgeIdToken(nonces.get('last') ?? '');
        const now = Math.floor(Date.now() / 1000);
        const signingKey =
          state.forgedSignature === 'foreign-key'
            ? (await generateKeyPair('RS256')).privateKey
            : privateKey;
        let idToken = await new SignJWT({ aud: clientId, iat: now, exp: now + 300, ...claims })
          .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
          .sign(signingKey);
        if (state.forgedSignature === 'garbage') {
          const [header, payload, signature] = idToken.split('.');
          idToken = `${header}.${payload}.${randomBytes(Buffer.from(signature!, 'base64url').length).toString('base64url')}`;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(
          JSON.stringify({ access_token: 'forged', token_type: 'Bearer', id_token: idToken }),
        );
        return;
      }
      await handle(req, res);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });

  async function interaction(req: IncomingMessage, res: ServerResponse, url: URL) {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><title>Test provider</title><main><h1>Test provider</h1>` +
          `<form method="post" action="${url.pathname}"><label>Login <input name="login"></label>` +
          `<button>Continue</button></form></main></html>`,
      );
      return;
    }
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const login = new URLSearchParams(body).get('login') ?? '';
    if (!accounts.has(login)) {
      await provider.interactionFinished(req, res, { error: 'access_denied' });
      return;
    }
    const grant = new provider.Grant({
      accountId: login,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: login }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }
  return state;
}

/** Cookies of one client (the test's "browser" at the provider), by name. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Follows an authorization URL at the provider as a browser would, signing in as `login`: the
 * URL the provider sends the browser back to (the app's callback, with code and state).
 */
export async function signInAtProvider(authorizeUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizeUrl);
  for (let hop = 0; hop < 10; hop += 1) {
    const isForm = url.pathname.startsWith('/interaction/');
    const res = await fetch(url, {
      method: isForm ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(isForm ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: isForm ? new URLSearchParams({ login }).toString() : undefined,
    });
    jar.take(res);
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.origin !== url.origin) return next;
    url = next;
  }
  throw new Error('too many redirects at the provider');
}
