import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInCampus, type CampusWork } from '../../campuses/campus-context';
import type { Database } from '../../db/database';
import { books } from '../../db/schema';
import { openTestDatabase, TEST_ENGINE } from '../../../test/helpers';
import {
  FAKE_ISBNS,
  startFakeBookProviders,
  type FakeBookProviders,
} from '../../../test/support/fake-book-providers';
import { googleBooksProvider } from './google-books';
import { openLibraryProvider } from './open-library';
import { createBookLookup, MISS_TTL_MS } from './books.service';

describe(`book lookup: providers in turn, cached (${TEST_ENGINE})`, () => {
  let database: Database;
  let fake: FakeBookProviders;
  let clock: Date;
  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startFakeBookProviders();
  });
  afterAll(async () => {
    await fake.close();
    await database.close();
  });
  beforeEach(async () => {
    fake.requests.clear();
    clock = new Date(Date.UTC(2026, 8, 1));
    await database.db.delete(books);
  });

  const lookupWith = (withGoogle = true, timeoutMs?: number) =>
    createBookLookup({
      db: database.db,
      providers: [
        openLibraryProvider(fake.url, fake.url),
        ...(withGoogle ? [googleBooksProvider(fake.url, fake.url, 'fake-key')] : []),
      ],
      now: () => clock,
      timeoutMs,
    });
  const asked = (path: string) => fake.requests.get(path) ?? 0;

  it("reads Open Library's answer: title, authors, edition, publisher, year, cover", async () => {
    expect(await lookupWith().lookup(FAKE_ISBNS.hit)).toEqual({
      kind: 'found',
      provider: 'Open Library',
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
    expect(asked('/books/v1/volumes')).toBe(0);
  });

  it('asks Google Books when Open Library does not know the book (and only with a key)', async () => {
    const found = await lookupWith().lookup(FAKE_ISBNS.googleOnly);
    expect(found).toMatchObject({
      kind: 'found',
      provider: 'Google Books',
      book: {
        title: 'Calculus, 8th Edition',
        authors: 'James Stewart',
        edition: '8th',
        year: 2015,
      },
    });
    expect(found.kind === 'found' && found.book.coverUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/books\/content\?/,
    );
    expect(asked('/api/books')).toBe(1);
    await database.db.delete(books);
    expect(await lookupWith(false).lookup(FAKE_ISBNS.googleOnly)).toEqual({ kind: 'unknown' });
  });

  it('asks the providers once per book: the answer is cached', async () => {
    const lookup = lookupWith();
    await lookup.lookup(FAKE_ISBNS.hit);
    // A new process (a new lookup) reads the cache row too.
    expect(await lookupWith().lookup(FAKE_ISBNS.hit)).toMatchObject({ kind: 'found' });
    expect(asked('/api/books')).toBe(1);
  });

  it('keeps a miss for a day, then asks again', async () => {
    const lookup = lookupWith();
    expect(await lookup.lookup(FAKE_ISBNS.miss)).toEqual({ kind: 'unknown' });
    clock = new Date(clock.getTime() + MISS_TTL_MS - 1000);
    expect(await lookup.lookup(FAKE_ISBNS.miss)).toEqual({ kind: 'unknown' });
    expect(asked('/api/books')).toBe(1);
    expect(asked('/books/v1/volumes')).toBe(1);
    clock = new Date(clock.getTime() + 2000);
    expect(await lookup.lookup(FAKE_ISBNS.miss)).toEqual({ kind: 'unknown' });
    expect(asked('/api/books')).toBe(2);
  });

  it.each([
    ['answers 429', FAKE_ISBNS.rateLimited],
    ['answers malformed JSON', FAKE_ISBNS.malformed],
  ])(
    'calls the lookup unavailable, and caches nothing, when a provider %s',
    async (_what, isbn) => {
      const lookup = lookupWith(false);
      expect(await lookup.lookup(isbn)).toEqual({ kind: 'unavailable' });
      expect(await lookup.lookup(isbn)).toEqual({ kind: 'unavailable' });
      expect(asked('/api/books')).toBe(2);
      expect(await database.db.select().from(books)).toEqual([]);
    },
  );

  it('gives up on a provider that does not answer in time', async () => {
    expect(await lookupWith(false, 200).lookup(FAKE_ISBNS.slow)).toEqual({ kind: 'unavailable' });
  });

  it('asks the provider once for 25 concurrent lookups of one book', async () => {
    const lookup = lookupWith();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => lookup.lookup(FAKE_ISBNS.hit)),
    );
    expect(answers.every((a) => a.kind === 'found')).toBe(true);
    expect(asked('/api/books')).toBe(1);
  });

  it("shares a lookup in flight within a campus only: each campus's is saved in its own books", async () => {
    const lookup = lookupWith();
    const campus = (key: string) => ({ key, schema: `campus_${key}` }) as CampusWork;
    // The provider holds its answer until both campuses asked: neither campus's book is saved
    // before the other looks, so only sharing the lookup across campuses could make one request.
    const answers = Promise.all(
      ['alpha', 'beta', 'alpha', 'beta'].map((key) =>
        runInCampus(campus(key), () => lookup.lookup(FAKE_ISBNS.gated)),
      ),
    );
    const deadline = Date.now() + 5_000;
    while (asked('/api/books') < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    fake.releaseGated();
    expect((await answers).every((a) => a.kind === 'found')).toBe(true);
    expect(asked('/api/books')).toBe(2);
  });

  it('answers off, asking no one, without providers (BOOK_LOOKUP=off)', async () => {
    const lookup = createBookLookup({ db: database.db, providers: [] });
    expect(await lookup.lookup(FAKE_ISBNS.hit)).toEqual({ kind: 'off' });
    expect(fake.requests.size).toBe(0);
  });
});
