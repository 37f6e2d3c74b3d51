import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { images } from '../../db/schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, insertListings } from '../../../test/listing-fixtures';
import {
  FAKE_ISBNS,
  startFakeBookProviders,
  type FakeBookProviders,
} from '../../../test/support/fake-book-providers';

describe(`/api/books/{isbn} (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let fake: FakeBookProviders;
  let seller: TestUser;
  beforeAll(async () => {
    fake = await startFakeBookProviders();
    t = await createTestApp(fake.env);
    seller = await createUser(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const get = (url: string, user: TestUser | null = seller) =>
    t.app.inject({ url, headers: user ? { cookie: user.cookie } : {} });

  describe('GET /api/books/{isbn}', () => {
    it('answers the book of an ISBN typed in any form', async () => {
      const res = await get('/api/books/0-262-03384-4');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        found: true,
        book: {
          isbn: FAKE_ISBNS.hit,
          title: 'Introduction to Algorithms',
          authors: 'Thomas H. Cormen, Charles E. Leiserson',
          edition: '3rd ed.',
          publisher: 'MIT Press',
          year: 2009,
          coverUrl: `${fake.url}/b/id/6297316-L.jpg`,
        },
      });
    });

    it('says plainly when the book is unknown or cannot be looked up', async () => {
      expect((await get(`/api/books/${FAKE_ISBNS.miss}`)).json()).toEqual({
        success: true,
        found: false,
        message: "We don't know this book: fill in the form yourself",
      });
      expect((await get(`/api/books/${FAKE_ISBNS.rateLimited}`)).json()).toEqual({
        success: true,
        found: false,
        message: "We couldn't look it up, fill in the form yourself",
      });
    });

    it.each([
      ['a bad check digit', '9780262033849', /check digit is wrong/],
      ['a misplaced X', '02620X3844', /ISBN must be 10 or 13 digits/],
      ['words', 'calculus', /ISBN must be 10 or 13 digits/],
    ])('refuses %s with a 400', async (_what, isbn, message) => {
      const res = await get(`/api/books/${isbn}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
      expect(res.json().message).toMatch(message);
    });

    it('is for signed-in sellers only', async () => {
      expect((await get(`/api/books/${FAKE_ISBNS.hit}`, null)).statusCode).toBe(401);
    });

    it('asks no one when BOOK_LOOKUP=off', async () => {
      const off = await createTestApp({ ...fake.env, BOOK_LOOKUP: 'off' });
      try {
        const user = await createUser(off);
        const before = fake.requests.get('/api/books') ?? 0;
        const res = await off.app.inject({
          url: `/api/books/${FAKE_ISBNS.googleOnly}`,
          headers: { cookie: user.cookie },
        });
        expect(res.json()).toMatchObject({ found: false, message: /lookup is off/ });
        expect(fake.requests.get('/api/books') ?? 0).toBe(before);
      } finally {
        await off.close();
      }
    });
  });

  describe('GET /api/books/{isbn}/prices', () => {
    const ISBN = '9780000000088';
    it('counts the active copies with their range, and the sold median only from 3 sales', async () => {
      await insertListings(t, seller.id, [
        { isbn: ISBN, regularPrice: 30 },
        { isbn: ISBN, regularPrice: 45.5 },
        { isbn: ISBN, regularPrice: 20, status: 'sold' },
        { isbn: ISBN, regularPrice: 40, status: 'sold' },
      ]);
      const two = await get(`/api/books/${ISBN}/prices`, null);
      expect(two.statusCode, two.body).toBe(200);
      expect(two.json()).toEqual({
        success: true,
        isbn: ISBN,
        active: { count: 2, min: 30, max: 45.5 },
        sold: { count: 2, median: null },
      });
      await insertListings(t, seller.id, [{ isbn: ISBN, regularPrice: 35, status: 'sold' }]);
      expect((await get('/api/books/0-00-000008-6/prices', null)).json()).toMatchObject({
        sold: { count: 3, median: 35 },
      });
    });

    it('answers zeros for a book nobody lists', async () => {
      expect((await get(`/api/books/${FAKE_ISBNS.miss}/prices`)).json()).toEqual({
        success: true,
        isbn: FAKE_ISBNS.miss,
        active: { count: 0, min: null, max: null },
        sold: { count: 0, median: null },
      });
    });
  });

  describe("POST /api/books/{isbn}/cover: the publisher's cover as one of the seller's images", () => {
    const importCover = (isbn: string, user: TestUser | null = seller) =>
      routeCaller(() => t)('POST /api/books/:isbn/cover', { as: user, params: { isbn } });

    it('fetches the cover into the image pipeline, and the listing marks it', async () => {
      const res = await importCover(FAKE_ISBNS.hit);
      expect(res.status, res.ok ? '' : res.text).toBe(201);
      const { url } = dataOf(res);
      expect(url).toMatch(/^\/api\/images\/[0-9a-f-]{36}\/\d+\.webp$/);
      const image = await t.app.inject(url);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      const listing = await createListingAs(t, seller, {
        imageUrls: [url],
        publisherCover: url,
        isbn: FAKE_ISBNS.hit,
      });
      expect(listing.publisherCover).toBe(url);
    });

    it.each([
      ['a book without a cover', FAKE_ISBNS.miss, 404],
      ['a cover that redirects to another host', FAKE_ISBNS.coverRedirects, 422],
      ['a cover that is not an image', FAKE_ISBNS.coverNotImage, 415],
      ['a cover of too many pixels', FAKE_ISBNS.coverTooManyPixels, 422],
    ])('refuses %s and keeps no image', async (_what, isbn, status) => {
      const before = await t.database.db.select().from(images).where(eq(images.ownerId, seller.id));
      const res = await importCover(isbn);
      expect(res.status, res.ok ? '' : res.text).toBe(status);
      expect(errorOf(res)).toMatchObject({ success: false, statusCode: status });
      const after = await t.database.db.select().from(images).where(eq(images.ownerId, seller.id));
      expect(after).toHaveLength(before.length);
    });

    it('imports one image for 25 concurrent imports of one cover by one seller', async () => {
      const buyer = await createUser(t);
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => importCover(FAKE_ISBNS.hit, buyer)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(25).fill(201));
      expect(new Set(answers.map((a) => dataOf(a).url)).size).toBe(1);
      const owned = await t.database.db.select().from(images).where(eq(images.ownerId, buyer.id));
      expect(owned).toHaveLength(1);
    });

    it('is for signed-in sellers only', async () => {
      expect((await importCover(FAKE_ISBNS.hit, null)).status).toBe(401);
    });
  });
});
