import { apiRoutes, type ApiRouteContract } from '@campus-books/common/api-routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  // With single sign-on on, so its routes are registered (a CAS server is reached only on a sign-in).
  t = await createTestApp({ SSO_PROTOCOL: 'cas', CAS_BASE_URL: 'http://cas.campus.test' });
  await t.app.ready();
});
afterAll(async () => t.close());

/** The schema a route's answer entry holds: the schema itself, or its application/json content. */
function schemaOf(answer: unknown): unknown {
  const json = (answer as { content?: Record<string, { schema?: unknown }> }).content?.[
    'application/json'
  ];
  return json ? json.schema : answer;
}

// The web app types its calls from common's route table (web/src/lib/api-client.ts `apiCall`); the
// server must declare the very same schemas, or the two could drift apart unseen.
describe('the route table the web app calls through', () => {
  const entries = Object.entries(apiRoutes) as [string, ApiRouteContract][];

  it('names only routes the app registers, with the schemas they declare', () => {
    const mismatches: string[] = [];
    for (const [key, contract] of entries) {
      const [method, url] = key.split(' ');
      const route = t.app.registeredRoutes.find((r) => r.method === method && r.url === url);
      if (!route) {
        mismatches.push(`${key}: not registered`);
        continue;
      }
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      if (schema.params !== contract.params) mismatches.push(`${key}: params`);
      if (schema.querystring !== contract.query) mismatches.push(`${key}: query`);
      if (typeof contract.body === 'function') {
        // Shaped by the campus's rules: the route builds it from the table with the app's rules.
        const rules = {
          schoolEmailDomain: t.app.config.schoolEmailDomain,
          groupmeLinkPrefix: t.app.config.groupmeLinkPrefix,
        };
        const declared = JSON.stringify(z.toJSONSchema(schema.body as z.ZodType));
        if (declared !== JSON.stringify(z.toJSONSchema(contract.body(rules)))) {
          mismatches.push(`${key}: body`);
        }
      } else if (schema.body !== contract.body) mismatches.push(`${key}: body`);
      const answers = Object.entries((schema.response ?? {}) as Record<string, unknown>)
        .filter(([status]) => status.startsWith('2'))
        .map(([status, answer]) => [status, schemaOf(answer)] as const);
      // One schema for every 2xx, or (where they differ) the very statuses, each with its schema.
      const expected = (status: string): unknown =>
        contract.response instanceof z.ZodType
          ? contract.response
          : (contract.response as Record<string, z.ZodType>)[status];
      const declaresEach =
        contract.response instanceof z.ZodType ||
        Object.keys(contract.response).length === answers.length;
      if (
        answers.length === 0 ||
        !declaresEach ||
        answers.some(([status, answer]) => answer !== expected(status))
      ) {
        mismatches.push(`${key}: response`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(entries.length).toBeGreaterThan(50);
  });
});
