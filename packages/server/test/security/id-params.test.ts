import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema';
import { createUpload } from '../support/tus-test-client';
import { createUser, TEST_ENGINE, type TestUser } from '../helpers';
import { checkAnswer } from './check-answer';
import {
  createAttackWorld,
  EXPECTED_ROUTES,
  isTus,
  validBodyFor,
  type AttackWorld,
} from './route-fixtures';
import { fingerprint, printFigure, type RouteEntry } from './security-helpers';

/**
 * Every route with a path parameter, walked with near misses of a real id: upper-case and braced
 * UUIDs, overlong ids, NUL, encoded slashes and dot segments. Each is a clean 4xx in the API's
 * error shape (never a 5xx), and a refused request writes nothing.
 */
describe(`near-miss ids on every route with a path parameter (${TEST_ENGINE})`, () => {
  let w: AttackWorld;
  /** Real ids of every kind a route may name: the owner, a listing, an image, an upload. */
  let realIds: string[];
  /** A verified user who owns none of those. */
  let stranger: TestUser;
  const figures = { routes: 0, requests: 0, refused: 0, accepted: 0, answers5xx: 0 };

  beforeAll(async () => {
    w = await createAttackWorld();
    stranger = await createUser(w.t);
    const stored = await w.t.database.db.select({ id: images.id }).from(images);
    const upload = await createUpload(w.t.app, w.owner.cookie, 1000);
    realIds = [
      w.owner.id,
      w.listingId,
      ...stored.map((i) => i.id),
      upload.location!.split('/').pop()!,
    ];
  });
  afterAll(async () => {
    printFigure(`near-miss ids (${TEST_ENGINE})`, figures);
    await w.t.close();
  });

  /**
   * Near misses of one id, as they appear in a URL path (already encoded). `sameAs`: a spelling
   * of the same UUID in another case, which PostgreSQL reads as that UUID (RFC 4122 UUIDs are
   * case-insensitive): a read may find the resource, reported under its canonical id.
   */
  function nearMisses(id: string): { value: string; sameAs?: string }[] {
    // An id whose letters all sit past the first eight characters (or that has none) spells
    // the same in upper case: that is the real id, not a near miss, so it is left out.
    const otherCase = [id.toUpperCase(), id.slice(0, 8).toUpperCase() + id.slice(8)];
    return [
      ...[...new Set(otherCase)].filter((v) => v !== id).map((value) => ({ value, sameAs: id })),
      ...[
        `%7B${id}%7D`,
        `${id}${'0'.repeat(150)}`,
        `${id}%00`,
        '%00',
        `${id}%2F..`,
        `..%2F${id}`,
        `${id}%2F${randomUUID()}`,
        '%2E%2E',
        `${id}%20`,
        `%20${id}`,
        `${id}.`,
        id.replace(/-/g, ''),
      ].map((value) => ({ value })),
    ];
  }

  const fill = (route: RouteEntry, value: string) =>
    route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'file' ? '640.webp' : value));

  const withParams = EXPECTED_ROUTES.filter((r) => r.path.includes('/:'));

  it('walks every route of the app that has a path parameter', () => {
    const actual = w.routes.filter((r) => r.path.includes('/:'));
    expect(actual.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      withParams.map((r) => `${r.method} ${r.path}`).sort(),
    );
  });

  it.each(withParams.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: a 4xx for each, never a 5xx or a write',
    { timeout: 120_000 },
    async (_name, route) => {
      figures.routes += 1;
      let before = await fingerprint(w.t.database);
      const attempts: { url: string; sameAs?: string }[] = [
        ...[...realIds.flatMap(nearMisses), ...nearMisses(randomUUID())].map((v) => ({
          url: fill(route, v.value),
          sameAs: v.sameAs,
        })),
      ];
      if (route.path.includes(':file')) {
        for (const id of realIds) {
          attempts.push(
            { url: `/api/images/${id}/640.WEBP` },
            { url: `/api/images/${id}/%2E%2E%2F640.webp` },
            { url: `/api/images/${id}/640.webp%00` },
            { url: `/api/images/${id}/..%2F..%2F${id}%2F640.webp` },
          );
        }
      }
      // A stranger first (nothing may be accepted), then the owner (the same UUID in another case
      // may act on the owner's own resource, as its canonical spelling would).
      // The database's fingerprint is taken before every request that may be accepted (a case
      // variant, `sameAs`), after every accepted one, and at the end: between two of them, every
      // request was refused, and a write by any of them changes it (a fingerprint per run of
      // refusals, not per request: it reads every row of every table, and was most of this file's
      // time).
      let refusedSince: string[] = [];
      const expectNothingWritten = async () => {
        if (refusedSince.length === 0) return;
        const after = await fingerprint(w.t.database);
        expect(after, `refused but wrote: one of ${refusedSince.join(', ')}`).toBe(before);
        refusedSince = [];
      };
      for (const who of [stranger, w.owner]) {
        for (const { url, sameAs } of attempts) {
          if (sameAs) await expectNothingWritten();
          const body = validBodyFor(route);
          // Raw: every registered route with spellings of an id no typed call sends (encoded, cased).
          const res = await w.t.app.inject({
            method: route.method as 'GET',
            url,
            headers: {
              cookie: who.cookie,
              ...(isTus(route) ? { 'tus-resumable': '1.0.0', 'upload-offset': '0' } : {}),
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            ...(body ? { payload: JSON.stringify(body) } : {}),
          });
          const label = `${who === stranger ? 'stranger' : 'owner'} ${route.method} ${url}`;
          figures.requests += 1;
          if (res.statusCode >= 500) figures.answers5xx += 1;
          checkAnswer(res, label);
          const publicRead = route.method === 'GET' && !route.path.startsWith('/api/images');
          if (res.statusCode >= 400) {
            figures.refused += 1;
            refusedSince.push(label);
          } else {
            figures.accepted += 1;
            expect(sameAs, `${label} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toBeDefined();
            // A block names another student but changes only the caller's own list, and a draft's
            // id is the caller's to choose (another student's draft is never touched): anyone may.
            const ownList = ['/api/blocks/', '/api/drafts/'].some((p) => route.path.startsWith(p));
            expect(who === w.owner || publicRead || ownList, `${label} -> ${res.statusCode}`).toBe(
              true,
            );
            if (publicRead) {
              const answer = res.json<{ _id?: string; id?: string }>();
              expect(answer._id ?? answer.id, label).toBe(sameAs);
            }
            // An accepted request may write: the next run of refusals starts from what it left.
            before = await fingerprint(w.t.database);
          }
        }
      }
      await expectNothingWritten();
    },
  );
});
