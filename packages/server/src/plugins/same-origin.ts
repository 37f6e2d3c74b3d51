import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isSameOrigin } from '@campus-books/common/host-name';
import { forbidden } from '../lib/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether `origin` (an Origin header) is the site's own: its public address's, or the one the request names. */
function isOwnOrigin(origin: string, publicUrl: URL, request: FastifyRequest): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (an opaque origin) and anything else that is not an origin
  }
  if (isSameOrigin(url, publicUrl)) return true;
  try {
    return isSameOrigin(url, new URL(`${request.protocol}://${request.host}`));
  } catch {
    return false;
  }
}

/**
 * Refuses state-changing requests made from another site (CSRF): a foreign Origin, or a browser's
 * Sec-Fetch-Site of cross-site. Non-browser clients send neither and are let through; the
 * JSON-only body parser turns away HTML form posts (415). Origins are compared with their hosts in
 * their one spelling (common's host-name.ts): `https://Campus.Example.` is PUBLIC_URL's
 * `https://campus.example`.
 */
export default fp(async function sameOriginPlugin(app: FastifyInstance) {
  // PUBLIC_URL, or in a many-campus installation the request's campus's address (decision 024):
  // another campus's origin is foreign on this campus's host.
  let parsed = { text: app.config.publicUrl, url: new URL(app.config.publicUrl) };
  const publicUrlOf = () => {
    const text = app.config.publicUrl;
    if (text !== parsed.text) parsed = { text, url: new URL(text) };
    return parsed.url;
  };
  // A callback, not an async function: it runs on every request (docs/performance.md, "Hooks").
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    // A route whose request carries its own authority (a signed token), e.g. RFC 8058 unsubscribe.
    if ((request.routeOptions.config as { crossSite?: boolean } | undefined)?.crossSite) {
      return done();
    }
    const origin = request.headers.origin;
    const crossSite =
      origin !== undefined
        ? !isOwnOrigin(origin, publicUrlOf(), request)
        : request.headers['sec-fetch-site'] === 'cross-site';
    done(crossSite ? forbidden('Cross-site requests are not allowed') : undefined);
  });
});
