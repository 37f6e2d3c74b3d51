import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests made from another site (CSRF): a foreign Origin, or a browser's
 * Sec-Fetch-Site of cross-site. Non-browser clients send neither and are let through; the
 * JSON-only body parser turns away HTML form posts (415).
 */
export default fp(async function sameOriginPlugin(app: FastifyInstance) {
  const allowed = new Set([new URL(app.config.publicUrl).origin]);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // A route whose request carries its own authority (a signed token), e.g. RFC 8058 unsubscribe.
    if ((request.routeOptions.config as { crossSite?: boolean } | undefined)?.crossSite) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const own = `${request.protocol}://${request.host}`;
      if (!allowed.has(origin) && origin !== own) {
        throw forbidden('Cross-site requests are not allowed');
      }
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw forbidden('Cross-site requests are not allowed');
    }
  });
});
