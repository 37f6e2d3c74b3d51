import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../helpers';
import { checkAnswer } from './check-answer';
import {
  createAttackWorld,
  isStateChanging,
  validBodyFor,
  type AttackWorld,
} from './route-fixtures';
import { fillPath, fingerprint, printFigure, type RouteEntry } from './security-helpers';

/** How a hostile page can make the victim's browser send a request, cookie included. */
const FORGERIES: {
  name: string;
  headers: Record<string, string>;
  body: (valid: string) => string;
}[] = [
  {
    name: 'a foreign Origin',
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    body: (v) => v,
  },
  {
    name: 'Origin null (sandboxed frame)',
    headers: { origin: 'null', 'content-type': 'application/json' },
    body: (v) => v,
  },
  {
    name: 'a look-alike Origin',
    headers: { origin: 'http://localhost.evil.example', 'content-type': 'application/json' },
    body: (v) => v,
  },
  {
    name: 'a look-alike Origin in another spelling',
    headers: { origin: 'http://LOCALHOST.evil.example.:3000', 'content-type': 'application/json' },
    body: (v) => v,
  },
  {
    name: 'Sec-Fetch-Site cross-site',
    headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
    body: (v) => v,
  },
  // HTML forms, even without an Origin header (old browsers, privacy extensions):
  {
    name: 'a urlencoded form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: () => 'name=Hijacked&password=Hijacked-1',
  },
  {
    name: 'a multipart form',
    headers: { 'content-type': 'multipart/form-data; boundary=B' },
    body: () => '--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nHijacked\r\n--B--\r\n',
  },
  {
    name: 'a text/plain form carrying JSON',
    headers: { 'content-type': 'text/plain' },
    body: (v) => v,
  },
  {
    name: 'an empty urlencoded form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: () => '',
  },
  { name: 'an empty text/plain form', headers: { 'content-type': 'text/plain' }, body: () => '' },
];

describe(`cross-site requests change nothing (${TEST_ENGINE})`, () => {
  let w: AttackWorld;
  const figures = { forgeries: 0, accepted: 0, writes: 0 };
  beforeAll(async () => {
    w = await createAttackWorld();
  });
  afterAll(async () => {
    printFigure(`CSRF (${TEST_ENGINE})`, figures);
    await w.t.close();
  });

  const idsFor = (route: RouteEntry) => ({
    id: route.path.startsWith('/api/user/') ? w.owner.id : w.listingId,
    token: 'abc',
  });

  it('the site’s own Origin in another spelling is the site’s (upper case, trailing dot)', async () => {
    for (const origin of [
      'http://localhost:3000',
      'http://LOCALHOST.:3000',
      'http://LocalHost..:3000',
    ]) {
      const res = await w.t.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        headers: { origin, 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode, `${origin}: ${res.body}`).toBe(200);
    }
  });

  for (const forgery of FORGERIES) {
    it(`${forgery.name}: refused on every state-changing route, the owner's data untouched`, async () => {
      for (const route of w.routes.filter(isStateChanging)) {
        const before = await fingerprint(w.t.database);
        const res = await w.t.app.inject({
          method: route.method as 'POST',
          url: fillPath(route.path, idsFor(route)),
          headers: {
            cookie: w.owner.cookie,
            'tus-resumable': '1.0.0',
            'upload-length': '100',
            ...forgery.headers,
          },
          payload: forgery.body(JSON.stringify(validBodyFor(route) ?? {})),
        });
        const label = `${route.method} ${route.path} via ${forgery.name}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        figures.forgeries += 1;
        checkAnswer(res, label);
        if (res.statusCode < 400) figures.accepted += 1;
        expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        const after = await fingerprint(w.t.database);
        if (after !== before) figures.writes += 1;
        expect(after, label).toBe(before);
      }
      // The session survived every forgery.
      expect(
        (await w.t.app.inject({ url: '/api/auth/me', headers: { cookie: w.owner.cookie } }))
          .statusCode,
      ).toBe(200);
    });
  }
});
