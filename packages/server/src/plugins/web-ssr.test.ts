import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../test/api-caller';
import {
  createUser,
  createWebTestApp,
  TEST_ENGINE,
  TEST_WEB_SHELL,
  type TestApp,
} from '../../test/helpers';
import { withCampusElement } from './web-campus';
import { campusShell } from './web-campus';
import { insertListings } from '../../test/listing-fixtures';
import { rendered } from '../../test/support/stand-in-renderer';

const STAND_IN = fileURLToPath(new URL('../../test/support/stand-in-renderer.ts', import.meta.url));

/** The built shell as the server answers it: naming its campus, and carrying it. */
function plainShell(t: TestApp): string {
  const campus = t.config.campus;
  return withCampusElement(campusShell(TEST_WEB_SHELL, campus), campus);
}

/** The section the stand-in renders: the data the server loaded for the page, as JSON. */
function renderedData(html: string): unknown {
  const json = /<section id="data">([\s\S]*?)<\/section>/.exec(html)?.[1];
  return json === undefined ? undefined : JSON.parse(json.replace(/&lt;/g, '<'));
}

describe(`server rendering of the landing pages (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: Awaited<ReturnType<typeof createUser>>;
  let activeId: string;
  let hiddenId: string;
  const route = routeCaller(() => t);
  const econDemand = async () =>
    dataOf(
      await route('GET /api/alerts/demand', { query: { subject: 'ECON', courseNumber: '101' } }),
    );

  beforeAll(async () => {
    t = await createWebTestApp({ 'index.html': TEST_WEB_SHELL }, {}, { webServerEntry: STAND_IN });
    seller = await createUser(t);
    const ids = await insertListings(t, seller.id, [
      { name: 'rendered calculus', subject: 'ECON', courseNumber: '101', regularPrice: 25 },
      { name: 'hidden chemistry', status: 'hidden' },
    ]);
    [activeId, hiddenId] = [ids[0]!, ids[1]!];
  });
  afterAll(() => t.close());

  it('answers / with the recent listings the API would answer, inside the shell, not cached by others', async () => {
    const response = await t.app.inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const api = (await t.app.inject('/api/listing/get?type=sale&limit=4')).json();
    const wanted = (await t.app.inject('/api/alerts/most-wanted')).json();
    expect(renderedData(response.body)).toEqual({
      kind: 'home',
      recent: api,
      mostWanted: wanted.courses,
    });
    expect(response.body).toContain('<script type="application/json" id="ssr-state">');
    expect(response.body.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('compresses every landing page', async () => {
    for (const url of [
      '/',
      '/search?status=active_or_none',
      `/listing/${activeId}`,
      '/course/ECON-101',
    ]) {
      const response = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers['content-encoding'], url).toBe('br');
    }
  });

  it("moves the page's title and preloads, written first by the renderer, into the head", async () => {
    const html = (await t.app.inject('/')).body;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(head).toContain('<title>Rendered home</title>');
    expect(head).toContain('<link rel="preload" as="image" href="/p.webp"/>');
    expect(html).toContain('<div id="root"><section id="data">');
  });

  it('answers /listing/{id} with the listing and its demand, and 404 for one that does not exist or is hidden', async () => {
    // Another student saved it: one student wants books for its course.
    const buyer = await createUser(t);
    const save = { method: 'POST' as const, url: `/api/saved/add/${activeId}` };
    expect((await t.app.inject({ ...save, headers: { cookie: buyer.cookie } })).statusCode).toBe(
      200,
    );
    // A save changes no listing: a page kept before it shows the demand within its TTL (a minute,
    // decision 006). Rendered again now, it shows it.
    t.app.listingCaches.invalidate();

    const page = await t.app.inject(`/listing/${activeId}`);
    expect(page.statusCode).toBe(200);
    const answer = dataOf(await route('GET /api/listing/get/:id', { params: { id: activeId } }));
    const demand = await econDemand();
    expect(answer.isbn).toBeNull();
    expect(demand.students).toBe(1);
    expect(renderedData(page.body)).toEqual({
      kind: 'listing',
      listing: answer,
      demand: demand.students,
      otherCopies: null,
    });
    // The footer's links come with every page, as GET /api/config answers them.
    expect(rendered.at(-1)?.publicConfig).toEqual((await t.app.inject('/api/config')).json());

    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', hiddenId]) {
      const missing = await t.app.inject(`/listing/${id}`);
      expect(missing.statusCode, id).toBe(404);
      expect(renderedData(missing.body)).toEqual({
        kind: 'listing',
        listing: null,
        message: 'Listing not found',
      });
    }
    // The seller sees their hidden listing, as the API shows it to them.
    const asSeller = { headers: { cookie: seller.cookie } };
    const api = await t.app.inject({ url: `/api/listing/get/${hiddenId}`, ...asSeller });
    const own = await t.app.inject({ url: `/listing/${hiddenId}`, ...asSeller });
    expect(api.statusCode).toBe(200);
    expect(own.statusCode).toBe(200);
  });

  it("answers a book's listing with its other copies as the API answers them, and / with the most wanted courses", async () => {
    const isbn = '9780306406157';
    const [first, second] = await insertListings(t, seller.id, [
      { name: 'rendered optics', isbn, subject: 'PHYS', courseNumber: '231' },
      { name: 'rendered optics, second copy', isbn, subject: 'PHYS', courseNumber: '231' },
    ]);
    const buyer = await createUser(t);
    const alert = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: buyer.cookie },
      payload: { subject: 'PHYS', courseNumber: '231' },
    });
    expect(alert.statusCode, alert.body).toBe(201);

    const page = await t.app.inject(`/listing/${first}`);
    const copies = dataOf(
      await route('GET /api/listing/get', { query: { searchTerm: isbn, limit: 20 } }),
    );
    expect(copies.map((c) => c._id).sort()).toEqual([first, second].sort());
    expect(renderedData(page.body)).toMatchObject({ kind: 'listing', otherCopies: copies });

    const wanted = (await t.app.inject('/api/alerts/most-wanted')).json();
    expect(wanted.courses).toContainEqual(
      expect.objectContaining({ subject: 'PHYS', courseNumber: '231', students: 1 }),
    );
    expect(renderedData((await t.app.inject('/')).body)).toMatchObject({
      kind: 'home',
      mostWanted: wanted.courses,
    });
  });

  it('renders for the signed-in user the session cookie names, with their saved listings', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/saved/add/${activeId}`,
      headers: { cookie: seller.cookie },
    });
    expect(saved.statusCode).toBe(200);
    await t.app.inject({ url: '/', headers: { cookie: seller.cookie } });
    expect(rendered.at(-1)?.user?._id).toBe(seller.id);
    // Their saved listings too (the hearts on the cards), as GET /api/saved/get answers them.
    const answer = await t.app.inject({
      url: '/api/saved/get',
      headers: { cookie: seller.cookie },
    });
    expect(rendered.at(-1)?.saved).toEqual(answer.json());
    expect(rendered.at(-1)?.saved?.map((l) => l._id)).toEqual([activeId]);
    // A signed-out visitor's render (an address not kept yet: the save left the kept pages).
    await t.app.inject('/?after-a-save');
    expect(rendered.at(-1)?.user).toBeNull();
    expect(rendered.at(-1)?.saved).toBeNull();
  });

  it("answers /search with the API's first page and total; a query the API refuses renders without data", async () => {
    const page = await t.app.inject('/search?searchTerm=calculus&status=active_or_none');
    const data = renderedData(page.body) as { firstPage: { listings: { _id: string }[] } };
    expect(data).toMatchObject({ kind: 'search', firstPage: { total: 1, isTotalCapped: false } });
    expect(data.firstPage.listings.map((l) => l._id)).toEqual([activeId]);

    const refused = await t.app.inject('/search?status=active_or_none&maxPrice=lots');
    expect(refused.statusCode).toBe(200);
    expect(renderedData(refused.body)).toBeNull();
  });

  it('answers /course/{code} with the course answer; an address that is no course renders without data', async () => {
    const page = await t.app.inject('/course/ECON-101');
    const api = dataOf(await route('GET /api/course/:code', { params: { code: 'ECON-101' } }));
    expect(renderedData(page.body)).toEqual({
      kind: 'course',
      course: api,
      demand: (await econDemand()).students,
    });
    expect(renderedData((await t.app.inject('/course/ZZZZZ-1')).body)).toBeNull();
    expect(renderedData((await t.app.inject(`/course/${'9'.repeat(40)}`)).body)).toBeNull();
  });

  it('renders the policy pages, /privacy with the retention periods GET /api/privacy answers', async () => {
    const about = await t.app.inject({ url: '/about', headers: { 'accept-encoding': 'br' } });
    expect(about.statusCode).toBe(200);
    expect(about.headers['content-encoding']).toBe('br');
    expect(renderedData((await t.app.inject('/about')).body)).toEqual({ kind: 'about' });
    const privacy = await t.app.inject('/privacy');
    expect(privacy.statusCode).toBe(200);
    expect(privacy.headers['cache-control']).toBe('private, no-cache');
    expect(renderedData(privacy.body)).toEqual({
      kind: 'privacy',
      settings: (await t.app.inject('/api/privacy')).json(),
    });
  });

  it('redirects an address the page would replace', async () => {
    const response = await t.app.inject('/search?searchTerm=a');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/search?searchTerm=a&status=x');
  });

  it('answers the plain shell for other routes, HEAD, and a render that fails', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/profile' },
      { method: 'HEAD' as const, url: '/' },
      { method: 'GET' as const, url: '/boom' },
    ]) {
      const response = await t.app.inject(request);
      expect(response.statusCode, request.url).toBe(200);
      expect(response.headers['cache-control'], request.url).toBe('no-cache');
      if (request.method === 'GET') expect(response.body).toBe(plainShell(t));
    }
  });

  it('never answers 5xx to an encoded or odd listing address', async () => {
    const before = rendered.length;
    for (const url of [
      '/listing/%2e%2e%2fadmin',
      '/listing/..%2f..%2fetc%2fpasswd',
      '/listing/%252e%252e',
      '/listing/%E0%A4%A',
      `/listing/${activeId}%3Fx=1`,
      `/listing/${activeId}?startIndex=-1`,
      '/listing/' + 'a'.repeat(5000),
    ]) {
      const response = await t.app.inject(url);
      expect(response.statusCode, url).toBeLessThan(500);
    }
    expect(rendered.length).toBeGreaterThan(before);
  });
});
