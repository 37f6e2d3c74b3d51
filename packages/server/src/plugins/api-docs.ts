import { activeCampus } from '@campus-books/common/active-campus';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { apiSchemas, errorResponses } from '@campus-books/common/api';
import { SESSION_COOKIE } from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, with its schemas (the contract test walks it). */
    registeredRoutes: { method: string; url: string; schema?: FastifySchema }[];
    /**
     * Answers a route gave with a status its response schema does not declare, as
     * `METHOD /url status` (the tests fail on any: the document lists every status a route sends).
     */
    undeclaredAnswers: Set<string>;
  }
}

/**
 * What the app's plugins may answer on any route, whatever the route itself does: a NUL character
 * in the query or path (nul-guard, 400), a server failure or an unavailable database (errors, 5xx),
 * and on a route that takes a body a cross-site request (same-origin, 403), a body over the limit
 * (413) or one that is not JSON (415). A route's own description of a status comes first.
 */
const ON_EVERY_ROUTE = {
  ...errorResponses({ 400: 'A NUL character in the query string or path' }),
  '5xx': errorResponses({
    500: 'Our failure (500) or the database is unavailable (503): the message is generic',
  })[500],
};
const ON_EVERY_WRITE = errorResponses({
  403: 'A cross-site request (a foreign Origin, or Sec-Fetch-Site: cross-site)',
  413: 'The body is too large',
  415: 'The body is not JSON',
});

const isWrite = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

/** A route's response schemas with the answers every route of its kind may give added. */
function withCrossCuttingAnswers(route: RouteOptions): void {
  const declared = route.schema?.response as Record<string, unknown> | undefined;
  if (!declared) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  route.schema = {
    ...route.schema,
    response: {
      ...ON_EVERY_ROUTE,
      ...(methods.some(isWrite) ? ON_EVERY_WRITE : {}),
      ...declared,
    },
  };
}

/** Whether a response schema names a status, exactly or by its class (`4xx`) or as `default`. */
export function declaresStatus(response: object, status: number): boolean {
  const keys = Object.keys(response);
  return [String(status), `${String(status)[0]}xx`, `${String(status)[0]}XX`, 'default'].some(
    (key) => keys.includes(key),
  );
}

/**
 * Collects every route's zod schemas as it is registered (so it comes before the routes); the
 * OpenAPI document is built from them on first request (features/docs). Schemas registered in
 * `apiSchemas` (Listing, CurrentUser…) become components every route references.
 */
export default fp(
  async function apiDocsPlugin(app: FastifyInstance) {
    const routes: FastifyInstance['registeredRoutes'] = [];
    app.decorate('registeredRoutes', routes);
    app.addHook('onRoute', (route: RouteOptions) => {
      withCrossCuttingAnswers(route);
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push({ method, url: route.url, schema: route.schema });
    });

    const undeclared = new Set<string>();
    app.decorate('undeclaredAnswers', undeclared);
    // A callback, not an async function: it runs on every request (docs/performance.md, "Hooks").
    app.addHook('onResponse', (request, reply, done) => {
      const response = request.routeOptions.schema?.response;
      const answer = `${request.method} ${request.routeOptions.url} ${reply.statusCode}`;
      if (response && !declaresStatus(response, reply.statusCode) && !undeclared.has(answer)) {
        undeclared.add(answer);
        request.log.warn({ answer }, 'a status the route does not declare');
      }
      done();
    });

    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: `${activeCampus().productName} API`,
          version: '1',
          description:
            `The JSON API of ${activeCampus().productName}. Rules, examples and error conventions: docs/api.md. ` +
            'Every failure answers `{success:false, statusCode, message}` (ApiError).',
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          },
        },
      },
      transform: createJsonSchemaTransform({ schemaRegistry: apiSchemas, skipList: [] }),
      transformObject: createJsonSchemaTransformObject({ schemaRegistry: apiSchemas }),
    });
  },
  { name: 'api-docs' },
);
