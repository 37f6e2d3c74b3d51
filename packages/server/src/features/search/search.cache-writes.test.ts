import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataOf, type RouteAnswer } from '@campus-books/common/call-route';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCaller } from '../../../test/api-caller';
import {
  createUser,
  TEST_ENGINE,
  TEST_WEB_SHELL,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { createAppOn, openSharedDatabase } from '../../../test/shared-database';
import { rendered } from '../../../test/support/stand-in-renderer';

const STAND_IN = fileURLToPath(
  new URL('../../../test/support/stand-in-renderer.ts', import.meta.url),
);

/** How many pages the stand-in renderer rendered while `ask` ran. */
async function rendersDuring(ask: () => Promise<unknown>): Promise<number> {
  const before = rendered.length;
  await ask();
  return rendered.length - before;
}

/**
 * The search caches and the signed-out pages are emptied when the catalogue changes, not by every
 * request that is not a GET: the writes a student makes all day without touching a listing leave
 * them warm on every app server, and a listing's change empties them on every app server.
 */
describe(`caches follow the catalogue, not the HTTP method (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let distDir: string;
  let seller: TestUser;
  let buyer: TestUser;
  let listing: { _id: string; imageUrls: string[] };
  let conversationId: string;

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(tmpdir(), 'cb-web-dist-'));
    writeFileSync(path.join(distDir, 'index.html'), TEST_WEB_SHELL);
    const web = { webDistDir: distDir, webServerEntry: STAND_IN };
    const env = { PUSH_TEST_ENDPOINTS: 'on', VAPID_SUBJECT: 'mailto:operators@richmond.edu' };
    shared = await openSharedDatabase();
    a = await createAppOn(shared.first, env, { poll: false }, web);
    b = await createAppOn(shared.second, env, { poll: false }, web);
    seller = await createUser(a);
    buyer = await createUser(a);
    listing = await createListingAs(a, seller, { name: 'Warm Thermodynamics' });
    const started = await onA('POST /api/conversations', {
      as: buyer,
      body: { listingId: listing._id, text: 'Is it still available?' },
    });
    expect(started.status, started.ok ? '' : started.text).toBe(201);
    conversationId = dataOf(started).conversationId;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  const onA = routeCaller(() => a);
  // Raw requests for the warm-up: the web app's pages are outside the route table.
  const pages = () => [
    '/',
    `/listing/${listing._id}`,
    '/search?searchTerm=thermodynamics&status=active_or_none',
  ];
  const searches = () => [
    '/api/listing/get',
    '/api/listing/get?searchTerm=thermodynamics',
    `/api/listing/get/${listing._id}`,
  ];
  /** Asks each server for the pages and searches, so that their caches hold them. */
  const warmUp = async () => {
    for (const t of [a, b]) {
      for (const url of [...pages(), ...searches()]) {
        const res = await t.app.inject(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      }
    }
  };
  /** What a server's search caches hold, and their generation. */
  const held = (t: TestApp) => {
    const caches = t.app.listingCaches;
    return {
      generation: caches.generation(),
      terms: caches.terms.size,
      totals: caches.totals.size,
      searches: caches.searches?.size ?? 0,
    };
  };
  /** Pages each server renders (rather than answers from memory) for the signed-out visitor. */
  const rendersOn = async (t: TestApp) => {
    let renders = 0;
    for (const url of pages()) renders += await rendersDuring(() => t.app.inject(url));
    return renders;
  };

  const subscription = () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return {
      endpoint: `http://127.0.0.1:9/push/${randomUUID()}`,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
      },
    };
  };
  const writes: [string, () => Promise<RouteAnswer<ApiRouteKey>>][] = [
    [
      'a sign-in',
      () =>
        onA('POST /api/auth/signin', { body: { email: buyer.email, password: buyer.password } }),
    ],
    ['a save', () => onA('POST /api/saved/add/:id', { as: buyer, params: { id: listing._id } })],
    [
      'a push subscription',
      () => onA('POST /api/push/subscriptions', { as: buyer, body: subscription() }),
    ],
    [
      'a read mark',
      () =>
        onA('POST /api/conversations/:id/read', {
          as: seller,
          params: { id: conversationId },
          body: { upTo: 1_000_000 },
        }),
    ],
  ];

  it.each(writes)('%s leaves the search caches and the signed-out pages warm', async (_, write) => {
    await warmUp();
    const before = { a: held(a), b: held(b) };
    expect(before.a.totals).toBeGreaterThan(0);
    expect(before.b.totals).toBeGreaterThan(0);

    const res = await write();
    expect(res.status, res.ok ? '' : res.text).toBe(200);

    expect({ a: held(a), b: held(b) }).toEqual(before);
    expect(await rendersOn(a)).toBe(0);
    expect(await rendersOn(b)).toBe(0);
    for (const t of [a, b]) {
      for (const url of searches()) await t.app.inject(url);
    }
    expect({ a: held(a), b: held(b) }).toEqual(before);
  });

  it("a listing's change empties them on both servers", async () => {
    for (const price of [31, 32]) {
      await warmUp();
      const before = { a: held(a), b: held(b) };
      const update = await onA('POST /api/listing/update/:id', {
        as: seller,
        params: { id: listing._id },
        body: listingBody({
          name: 'Warm Thermodynamics',
          regularPrice: price,
          imageUrls: listing.imageUrls,
        }),
      });
      expect(update.status, update.ok ? '' : update.text).toBe(200);
      // Every page is rendered again, on the server that wrote and on the other…
      expect(await rendersOn(a)).toBe(pages().length);
      expect(await rendersOn(b)).toBe(pages().length);
      // …and every search is answered anew, with the change.
      for (const t of [a, b]) {
        const route = routeCaller(() => t);
        const query = { searchTerm: 'thermodynamics' };
        const found = dataOf(await route('GET /api/listing/get', { query }));
        expect(found).toMatchObject([{ regularPrice: price }]);
        const byId = await route('GET /api/listing/get/:id', { params: { id: listing._id } });
        expect(dataOf(byId)).toMatchObject({ regularPrice: price });
        const page = await t.app.inject(`/listing/${listing._id}`);
        expect(page.body).toContain(`"regularPrice":${price}`);
      }
      expect(held(a).generation).toBeGreaterThan(before.a.generation);
      expect(held(b).generation).toBeGreaterThan(before.b.generation);
    }
  });
});
