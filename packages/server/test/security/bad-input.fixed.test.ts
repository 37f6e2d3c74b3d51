import { CALENDAR_MAX_CHARS } from '@campus-books/common/my-courses.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../helpers';
import { checkAnswer } from './check-answer';
import {
  createAttackWorld,
  isStateChanging,
  isTus,
  validBodyFor,
  type AttackWorld,
} from './route-fixtures';
import { fillPath, fingerprint, printFigure, type RouteEntry } from './security-helpers';

const BODY_LIMIT = 256 * 1024;
/** Routes that take more than the app's limit; their over-the-limit body is over their own. */
const ROUTE_BODY_LIMITS: Record<string, number> = {
  '/api/my-courses/calendar': CALENDAR_MAX_CHARS * 2 + 1024,
};
const OVER_THE_LIMIT = 'a body over the limit';
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Bodies no JSON route may take, with the status each must get. */
interface BadBody {
  name: string;
  type: string;
  payload: string;
  status: number[];
  /** Valid JSON: only routes that read a body must refuse it (the others may ignore it). */
  validJson?: boolean;
}

const CASES: BadBody[] = [
  { name: 'malformed JSON', type: 'application/json', payload: '{"name": "x",', status: [400] },
  { name: 'JSON with a NUL', type: 'application/json', payload: '{"a":"\u0000', status: [400] },
  { name: 'empty JSON body', type: 'application/json', payload: '', status: [400] },
  {
    name: '__proto__ key',
    type: 'application/json',
    payload: '{"__proto__":{"polluted":true},"name":"x"}',
    status: [400],
  },
  {
    name: 'constructor.prototype key',
    type: 'application/json',
    payload: '{"constructor":{"prototype":{"polluted":true}}}',
    status: [400],
  },
  {
    name: '10,000-deep arrays',
    type: 'application/json',
    payload: deepArray(10_000),
    status: [400],
    validJson: true,
  },
  {
    name: '10,000-deep objects',
    type: 'application/json',
    payload: deepObject(10_000),
    status: [400],
    validJson: true,
  },
  { name: 'text/plain', type: 'text/plain', payload: '{"a":1}', status: [415] },
  {
    name: 'an HTML form (urlencoded)',
    type: 'application/x-www-form-urlencoded',
    payload: 'name=x&userRef=y',
    status: [415],
  },
  {
    name: 'an HTML form (multipart)',
    type: 'multipart/form-data; boundary=XyZ',
    payload: '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--XyZ--\r\n',
    status: [415],
  },
  { name: 'application/xml', type: 'application/xml', payload: '<a/>', status: [415] },
  {
    name: OVER_THE_LIMIT,
    type: 'application/json',
    payload: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) }),
    status: [413],
  },
];

describe(`fixed bad bodies on every state-changing route (${TEST_ENGINE})`, () => {
  let w: AttackWorld;
  const figures = { requests: 0, answers5xx: 0, writesOnRefusal: 0 };
  beforeAll(async () => {
    w = await createAttackWorld();
  });
  afterAll(async () => {
    printFigure(`bad input, fixed cases (${TEST_ENGINE})`, figures);
    await w.t.close();
  });

  const jsonRoutes = () => w.routes.filter((r) => isStateChanging(r) && !isTus(r));
  const idsFor = (route: RouteEntry) => ({
    id: route.path.startsWith('/api/user/') ? w.owner.id : w.listingId,
    token: 'abc',
  });

  for (const c of CASES) {
    it(`${c.name}: ${c.status.join(' or ')} everywhere, nothing written, no prototype polluted`, async () => {
      const routes = jsonRoutes().filter((r) => !c.validJson || validBodyFor(r));
      for (const route of routes) {
        // The owner's cookie and real ids, so only the body stands between the request and a write.
        const before = await fingerprint(w.t.database);
        // Signing out is a legitimate answer to any JSON body: that route is attacked signed out.
        const signOut = route.path.includes('signout');
        const res = await w.t.app.inject({
          method: route.method as 'POST',
          url: fillPath(route.path, idsFor(route)),
          headers: { ...(signOut ? {} : { cookie: w.owner.cookie }), 'content-type': c.type },
          payload:
            c.name === OVER_THE_LIMIT && ROUTE_BODY_LIMITS[route.path]
              ? JSON.stringify({ name: 'x'.repeat(ROUTE_BODY_LIMITS[route.path]!) })
              : c.payload,
        });
        figures.requests += 1;
        if (res.statusCode >= 500) figures.answers5xx += 1;
        const label = `${route.method} ${route.path} with ${c.name}`;
        checkAnswer(res, label);
        // Routes that read no body but need an admin token or a signed-out caller answer earlier.
        const earlier = signOut ? [200] : [401, 403, 404];
        expect([...c.status, ...earlier, 400], `${label}: ${res.body}`).toContain(res.statusCode);
        // RFC 8058's one-click unsubscribe is a form post by definition: it reads the form, and a
        // form without its signed token is a 400.
        const oneClick =
          route.path === '/api/alerts/unsubscribe' &&
          c.type === 'application/x-www-form-urlencoded';
        if (oneClick) expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
        else if (route.path !== '/api/admin/backup' && !signOut) {
          expect(res.statusCode, `${label}: ${res.body}`).toBeOneOf(c.status);
        }
        const after = await fingerprint(w.t.database);
        if (after !== before) figures.writesOnRefusal += 1;
        expect(after, label).toBe(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    });
  }

  it('refuses a tus upload chunk over 2 MB and non-tus content on the upload routes', async () => {
    const before = await fingerprint(w.t.database);
    for (const route of w.routes.filter((r) => isTus(r))) {
      for (const c of CASES.filter((x) => x.type !== 'application/json')) {
        const res = await w.t.app.inject({
          method: route.method as 'POST',
          url: fillPath(route.path, { id: crypto.randomUUID() }),
          headers: { cookie: w.owner.cookie, 'content-type': c.type, 'tus-resumable': '1.0.0' },
          payload: c.payload,
        });
        figures.requests += 1;
        checkAnswer(res, `${route.method} ${route.path} with ${c.name}`);
      }
    }
    expect(await fingerprint(w.t.database)).toBe(before);
  });
});
