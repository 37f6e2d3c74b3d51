import { activeCampus } from '@campus-books/common/active-campus';
import { escapeHtml } from '../../lib/html';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * The reference page's policy: the app's strict one, except that Scalar's components inject their
 * styles at run time ('unsafe-inline' styles, this page only). Scripts stay our own files.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The reference's page, named after the campus's product. */
const page = () => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(activeCampus().productName)} API reference</title>
  </head>
  <body>
    <div id="reference"></div>
    <script src="/api/docs/scalar.js"></script>
    <script src="/api/docs/reference.js"></script>
  </body>
</html>
`;

/** Mounts the reference on the page: a file of ours, so the policy needs no inline script. */
const MOUNT = `Scalar.createApiReference('#reference', {
  url: '/api/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  // Its assistant and the registry search call Scalar's servers: nothing leaves the site.
  agent: { disabled: true },
  showDeveloperTools: 'never',
});
`;

/** Where Scalar's Fastify plugin serves its browser bundle, under the prefix it is given. */
const SCALAR_PREFIX = '/reference';
const SCALAR_SCRIPT = `${SCALAR_PREFIX}/js/scalar.js`;

/**
 * The browser bundle of Scalar's reference, shipped inside its Fastify package (no CDN), taken
 * through the package's public entry: its plugin, registered on a Fastify instance of its own that
 * never listens, serves the bundle, and that answer is what /api/docs/scalar.js sends. (The plugin
 * in the app itself would add its own page, whose inline script the policy refuses.)
 */
async function readScalarBundle(): Promise<string> {
  const { default: scalarReference } = await import('@scalar/fastify-api-reference');
  const scalar = Fastify();
  try {
    await scalar.register(scalarReference, {
      routePrefix: SCALAR_PREFIX,
      configuration: { content: {} },
    });
    const res = await scalar.inject({ method: 'GET', url: SCALAR_SCRIPT });
    if (res.statusCode !== 200) throw new Error(`Scalar's bundle: ${res.statusCode}`);
    return res.body;
  } finally {
    await scalar.close();
  }
}

const file = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: z.string() } } },
});

/**
 * GET /api/openapi.json (the OpenAPI 3 document built from the routes' zod schemas) and GET
 * /api/docs, a readable reference page of it. Both are left out of the document itself.
 */
export default async function docsRoutes(app: FastifyInstance) {
  let document: string | undefined;
  let bundle: Promise<string> | undefined;

  app.get(
    '/openapi.json',
    {
      schema: {
        hide: true,
        response: file('application/json', 'The OpenAPI 3 document of this API'),
      },
    },
    async (_request, reply) => {
      // Built once: the routes cannot change after start-up. A string is sent as it is.
      document ??= JSON.stringify(app.swagger());
      return reply
        .type('application/json; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(document);
    },
  );

  app.get(
    '/docs',
    { schema: { hide: true, response: file('text/html', 'The API reference page') } },
    async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', DOCS_CSP)
        .header('Cache-Control', 'no-cache')
        .send(page()),
  );

  app.get(
    '/docs/reference.js',
    { schema: { hide: true, response: file('text/javascript', 'Mounts the reference page') } },
    async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(MOUNT),
  );

  app.get(
    '/docs/scalar.js',
    { schema: { hide: true, response: file('text/javascript', "Scalar's reference bundle") } },
    async (_request, reply) => {
      bundle ??= readScalarBundle().catch((error: unknown) => {
        bundle = undefined; // try again on the next request
        throw error;
      });
      return reply
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'public, max-age=3600')
        .send(await bundle);
    },
  );
}
