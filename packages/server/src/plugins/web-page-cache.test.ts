import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../test/api-caller';
import {
  createUser,
  createWebTestApp,
  TEST_ENGINE,
  TEST_WEB_SHELL,
  type TestApp,
  type TestUser,
} from '../../test/helpers';
import { createListingAs, insertListings, listingBody } from '../../test/listing-fixtures';
import { createAppOn, openSharedDatabase } from '../../test/shared-database';
import { rendered } from '../../test/support/stand-in-renderer';
import { bodyOf, compressPage } from './page-cache';

const STAND_IN = fileURLToPath(new URL('../../test/support/stand-in-renderer.ts', import.meta.url));
const MODERATOR = `page.cache.moderator.${TEST_ENGINE}@richmond.edu`;

/** How many pages the stand-in renderer rendered while `ask` ran. */
async function rendersDuring(ask: () => Promise<unknown>): Promise<number> {
  const before = rendered.length;
  await ask();
  return rendered.length - before;
}

describe(`signed-out pages from memory (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let listingId: string;

  beforeAll(async () => {
    t = await createWebTestApp(
      { 'index.html': TEST_WEB_SHELL },
      { PAGE_CACHE_MB: '4', MODERATOR_EMAILS: MODERATOR },
      { webServerEntry: STAND_IN },
    );
    seller = await createUser(t);
    const ids = await insertListings(t, seller.id, [
      { name: 'kept calculus', subject: 'ECON', courseNumber: '101', regularPrice: 25 },
    ]);
    listingId = ids[0]!;
  });
  afterAll(() => t.close());

  it('renders a page once, then answers it from memory in each encoding with ETags and 304s', async () => {
    const first = await t.app.inject({ url: '/course/ECON-101' });
    expect(first.statusCode).toBe(200);
    const again = { url: '/course/ECON-101', headers: { 'accept-encoding': 'br, gzip' } };
    expect(await rendersDuring(() => t.app.inject(again))).toBe(0);

    const br = await t.app.inject(again);
    const gzip = await t.app.inject({ ...again, headers: { 'accept-encoding': 'gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(first.body);
    expect(br.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(br.headers['cache-control']).toBe('private, no-cache');
    expect(new Set([first.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);

    const revalidated = await t.app.inject({
      ...again,
      headers: { ...again.headers, 'if-none-match': String(br.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    // Another encoding's tag is another body: the whole page.
    const other = await t.app.inject({
      ...again,
      headers: { ...again.headers, 'if-none-match': String(gzip.headers.etag) },
    });
    expect(other.statusCode).toBe(200);

    // The uncompressed body is not kept: made again from the gzip body, the same bytes and tag.
    const plain = await t.app.inject({ url: '/course/ECON-101' });
    expect(await rendersDuring(() => t.app.inject({ url: '/course/ECON-101' }))).toBe(0);
    expect(plain.body).toBe(first.body);
    expect(plain.headers.etag).toBe(first.headers.etag);
    const kept = await compressPage(first.body, 200);
    expect(kept.bytes).toBe(kept.bodies.br.length + kept.bodies.gzip.length);
    expect(bodyOf(kept, 'identity').toString()).toBe(first.body);
  });

  it('renders a signed-in student their own page every time, and never keeps it', async () => {
    await t.app.inject(`/listing/${listingId}`);
    const asStudent = { url: `/listing/${listingId}`, headers: { cookie: seller.cookie } };
    const own = await t.app.inject(asStudent);
    expect(own.body).toContain(`{"user":"${seller.id}"}`);
    expect(own.headers.etag).toBeUndefined();
    expect(await rendersDuring(() => t.app.inject(asStudent))).toBe(1);
    // A tag of the signed-out page does not make a 304 for a session.
    const signedOut = await t.app.inject(`/listing/${listingId}`);
    expect(signedOut.body).toContain('{"user":null}');
    const conditional = await t.app.inject({
      ...asStudent,
      headers: { ...asStudent.headers, 'if-none-match': String(signedOut.headers.etag) },
    });
    expect(conditional.statusCode).toBe(200);
    expect(conditional.body).toContain(`{"user":"${seller.id}"}`);
    // An expired or forged session cookie is a signed-out visitor: the kept page.
    const forged = { url: `/listing/${listingId}`, headers: { cookie: 'cb_session=forged' } };
    expect(await rendersDuring(() => t.app.inject(forged))).toBe(0);
    expect((await t.app.inject(forged)).body).toBe(signedOut.body);
  });

  it('renders the page again after a change to the catalogue, and a removed listing is gone at once', async () => {
    const before = await t.app.inject(`/listing/${listingId}`);
    expect(before.body).toContain('"regularPrice":25');
    const route = routeCaller(() => t);
    const listing = dataOf(await route('GET /api/listing/get/:id', { params: { id: listingId } }));
    const update = await route('POST /api/listing/update/:id', {
      as: seller,
      params: { id: listingId },
      body: listingBody({
        name: 'kept calculus',
        regularPrice: 19,
        imageUrls: listing.imageUrls,
        subject: 'ECON',
        courseNumber: '101',
      }),
    });
    expect(update.status, update.ok ? '' : update.text).toBe(200);
    const after = await t.app.inject(`/listing/${listingId}`);
    expect(after.body).toContain('"regularPrice":19');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The old tag no longer answers 304.
    const stale = await t.app.inject({
      url: `/listing/${listingId}`,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(stale.statusCode).toBe(200);

    const moderator = await createUser(t, { email: MODERATOR });
    const removed = await t.app.inject({
      method: 'POST',
      url: `/api/moderation/listings/${listingId}/remove`,
      headers: { cookie: moderator.cookie },
      payload: { reason: 'Not a textbook' },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const gone = await t.app.inject(`/listing/${listingId}`);
    expect(gone.statusCode).toBe(404);
  });

  it('keeps an address the web app does not write apart: a flood of them cannot push the others out', async () => {
    const canonical = '/search?searchTerm=calculus&status=active_or_none';
    await t.app.inject(canonical);
    expect(await rendersDuring(() => t.app.inject(canonical))).toBe(0);
    // 4 MB for pages, 256 KB of it for addresses like these (a page carries the campus, ~10 KB):
    // far more than fit.
    for (let i = 0; i < 120; i += 1) {
      const response = await t.app.inject(`${canonical}&ref=${i}-${'x'.repeat(200)}`);
      expect(response.statusCode).toBe(200);
    }
    expect(await rendersDuring(() => t.app.inject(canonical))).toBe(0);
    // A page is what a render of its own address gives: nothing of another's query string.
    const tagged = await t.app.inject(`${canonical}&ref=group-chat`);
    expect(await rendersDuring(() => t.app.inject(`${canonical}&ref=group-chat`))).toBe(0);
    expect(rendered.at(-1)?.url).toBe(`${canonical}&ref=group-chat`);
    expect(tagged.statusCode).toBe(200);
  });

  it('answers the same page to the same address whatever else a request carries', async () => {
    const first = await t.app.inject({
      url: '/',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'user-agent': '<x>' },
    });
    const second = await t.app.inject('/');
    expect(second.body).toBe(first.body);
    expect(second.body).not.toContain('evil.example');
  });
});

describe(`signed-out pages on two app servers (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(tmpdir(), 'cb-web-dist-'));
    writeFileSync(path.join(distDir, 'index.html'), TEST_WEB_SHELL);
    const web = { webDistDir: distDir, webServerEntry: STAND_IN };
    shared = await openSharedDatabase();
    const env = { MODERATOR_EMAILS: MODERATOR };
    a = await createAppOn(shared.first, env, { poll: false }, web);
    b = await createAppOn(shared.second, env, { poll: false }, web);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('a change acknowledged by one server shows on the very next page the other answers', async () => {
    const seller = await createUser(a);
    const moderator = await createUser(a, { email: MODERATOR });
    for (let round = 0; round < 5; round += 1) {
      const listing = await createListingAs(a, seller, { name: `Shared page ${round}` });
      const page = `/listing/${listing._id}`;
      // B renders and keeps the listing's page, and the home page that lists it…
      expect((await b.app.inject(page)).statusCode).toBe(200);
      expect(await rendersDuring(() => b.app.inject(page))).toBe(0);
      expect((await b.app.inject('/')).body).toContain(`Shared page ${round}`);
      const removed = await a.app.inject({
        method: 'POST',
        url: `/api/moderation/listings/${listing._id}/remove`,
        headers: { cookie: moderator.cookie },
        payload: { reason: 'Not a textbook' },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      // …A acknowledged the removal: B's next answers no longer show it.
      expect((await b.app.inject(page)).statusCode).toBe(404);
      expect((await b.app.inject('/')).body).not.toContain(`Shared page ${round}`);
    }
  });
});

describe(`signed-out pages past their minute (${TEST_ENGINE})`, () => {
  const DAY = 24 * 3600_000;
  // The pages' clock, a year and more after the listing is made: "listed last year" reads so for a
  // year, "Confirmed available 400 days ago" until the next whole day.
  let now = Date.now() + 400 * DAY;
  let t: TestApp;
  let student: TestUser;
  let listingId: string;
  /** Asks for a page, and waits for what that started in the background. */
  const ask = (url: string) => async () => {
    const answer = await t.app.inject(url);
    await t.app.pagesSettled();
    return answer;
  };

  beforeAll(async () => {
    t = await createWebTestApp(
      { 'index.html': TEST_WEB_SHELL },
      { PAGE_CACHE_MB: '4' },
      { webServerEntry: STAND_IN, now: () => new Date(now) },
    );
    const seller = await createUser(t);
    student = await createUser(t);
    const ids = await insertListings(t, seller.id, [
      { name: 'aged calculus', subject: 'ECON', courseNumber: '101', regularPrice: 25 },
    ]);
    listingId = ids[0]!;
  });
  afterAll(() => t.close());

  it('renders one again only when what it shows changed, not for its minute alone', async () => {
    const course = ask('/course/ECON-101');
    expect(await rendersDuring(course)).toBe(1);
    const first = await course();
    // Past its minute, nothing it shows changed: loaded again, not rendered again.
    now += 61_000;
    expect(await rendersDuring(course)).toBe(0);
    now += 61_000;
    expect(await rendersDuring(course)).toBe(0);
    expect((await course()).headers.etag).toBe(first.headers.etag);

    // A student's alert for the course is demand the page shows, not a change of the catalogue.
    const alert = await routeCaller(() => t)('POST /api/alerts/create', {
      as: student,
      body: { subject: 'ECON', courseNumber: '101' },
    });
    expect(alert.status, alert.ok ? '' : alert.text).toBe(201);
    expect(await rendersDuring(course)).toBe(0);
    now += 61_000;
    expect(await rendersDuring(course)).toBe(1);
    expect(rendered.at(-1)!.data).toMatchObject({ kind: 'course', demand: 1 });
    expect((await course()).headers.etag).not.toBe(first.headers.etag);
    now += 61_000;
    expect(await rendersDuring(course)).toBe(0);
  });

  it('renders one again at its new time once a date it shows reads otherwise', async () => {
    const listing = ask(`/listing/${listingId}`);
    expect(await rendersDuring(listing)).toBe(1);
    now += 61_000;
    expect(await rendersDuring(listing)).toBe(0);
    // A day on, "Confirmed available 400 days ago" reads 401.
    now += DAY;
    expect(await rendersDuring(listing)).toBe(1);
    expect(rendered.at(-1)!.renderedAt).toBe(now);
  });
});
