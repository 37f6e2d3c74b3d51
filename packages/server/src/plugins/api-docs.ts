import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { apiSchemas } from '@campus-books/common/api';
import { SESSION_COOKIE } from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, with its schemas (the contract test walks it). */
    registeredRoutes: { method: string; url: string; schema?: FastifySchema }[];
  }
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
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push({ method, url: route.url, schema: route.schema });
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Campus Books API',
          version: '1',
          description:
            'The JSON API of Campus Books. Rules, examples and error conventions: docs/api.md. ' +
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
