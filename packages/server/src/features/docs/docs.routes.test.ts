import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { createTestApp, type TestApp } from '../../../test/helpers';

/**
 * Routes of the app allowed to have no response schema, each with the reason. Empty: every route
 * under /api declares its answers, non-JSON ones by their media type (images, tus, the docs page).
 * (The web app's pages and files are outside /api and outside this contract.)
 */
const WITHOUT_RESPONSE_SCHEMA: Record<string, string> = {};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(async () => t.close());

/** Every route of /api but the HEAD twins Fastify adds to GET routes. */
function apiRoutes() {
  const routes = t.app.registeredRoutes.filter((r) => r.url.startsWith('/api'));
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  return routes.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)));
}

describe('the API contract', () => {
  it('every route declares the schema of its success answers', () => {
    const routes = apiRoutes();
    const missing = routes
      .filter((r) => !WITHOUT_RESPONSE_SCHEMA[`${r.method} ${r.url}`])
      .filter((r) => {
        const codes = Object.keys((r.schema?.response ?? {}) as object);
        return !codes.some((code) => code.startsWith('2'));
      })
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    expect(routes.length).toBeGreaterThan(50);
  });

  it('serves a valid OpenAPI 3 document of every public route, as built', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // A pre-serialised string is sent as it is, not through the route's serializer again.
    expect(res.body).toBe(JSON.stringify(t.app.swagger()));
    const document = res.json();
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toMatch(/^3\./);
    // The document is the served campus's: its product, not a name written in.
    expect(document.info.title).toBe(`${activeCampus().productName} API`);

    const search = document.paths['/api/listing/get'].get.responses;
    expect(search['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/SearchedListing' },
    });
    // A search's listing is a listing, a partner campus's marked with its campus (consortium).
    const searched = document.components.schemas.SearchedListing;
    expect(JSON.stringify(searched.properties.campus)).toContain(
      '"#/components/schemas/ListingCampus"',
    );
    expect(searched.required).not.toContain('campus');
    expect(Object.keys(searched.properties)).toEqual(
      expect.arrayContaining(Object.keys(document.components.schemas.Listing.properties)),
    );
    expect(search['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ApiError',
    });
    // The user object documents no secret: what is not in the schema is never sent.
    const user = document.components.schemas.CurrentUser;
    expect(Object.keys(user.properties)).not.toContain('passwordHash');
    // Hidden: the operator's backup route and the docs themselves.
    expect(document.paths['/api/admin/backup']).toBeUndefined();
    expect(document.paths['/api/docs']).toBeUndefined();
    expect(Object.keys(document.paths).length).toBeGreaterThan(40);
  });

  it('answers a reference page whose scripts are our own files, under a strict policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
    expect(csp).toContain("frame-ancestors 'none'");
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([' src="/api/docs/scalar.js"', ' src="/api/docs/reference.js"']);
    for (const src of ['/api/docs/scalar.js', '/api/docs/reference.js']) {
      const script = await t.app.inject({ method: 'GET', url: src });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    }
    // Scalar's browser bundle itself, which defines what reference.js calls.
    const bundle = await t.app.inject({ method: 'GET', url: '/api/docs/scalar.js' });
    expect(bundle.body.length).toBeGreaterThan(1_000_000);
    expect(bundle.body).toContain('createApiReference');
    // The app's own pages keep the strict policy: the exception is this page's only.
    const other = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(String(other.headers['content-security-policy'])).toContain("style-src 'self';");
  });
});
