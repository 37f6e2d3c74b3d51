import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';

describe(`listings: the book and course fields (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: seller.cookie }, payload });
  const read = async (id: string) => (await t.app.inject(`/api/listing/get/${id}`)).json();

  it('stores an ISBN in any form as its ISBN-13, with authors, edition and subject', async () => {
    const created = await createListingAs(t, seller, {
      isbn: '0-262-03384-4',
      authors: 'Cormen, Leiserson, Rivest, Stein',
      edition: '3rd',
      subject: 'cmsc',
      courseNumber: '315',
    });
    expect(created).toMatchObject({
      isbn: '9780262033848',
      authors: 'Cormen, Leiserson, Rivest, Stein',
      edition: '3rd',
      subject: 'CMSC',
      publisherCover: null,
    });
    expect(await read(created._id)).toMatchObject({ isbn: '9780262033848', subject: 'CMSC' });
  });

  it('answers null for a listing created without them (old clients keep working)', async () => {
    const created = await createListingAs(t, seller);
    expect(created).toMatchObject({
      isbn: null,
      authors: null,
      edition: null,
      subject: null,
      publisherCover: null,
    });
  });

  it('keeps the fields on an update that omits them and clears them on an empty value', async () => {
    const created = await createListingAs(t, seller, { isbn: '9780262033848', subject: 'MATH' });
    const body = listingBody({ imageUrls: created.imageUrls });
    const kept = await post(`/api/listing/update/${created._id}`, body);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await read(created._id)).toMatchObject({ isbn: '9780262033848', subject: 'MATH' });
    const cleared = await post(`/api/listing/update/${created._id}`, {
      ...body,
      isbn: '',
      subject: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await read(created._id)).toMatchObject({ isbn: null, subject: null });
  });

  it("marks the publisher's cover only while the listing shows that image", async () => {
    const created = await createListingAs(t, seller);
    const [cover] = created.imageUrls;
    const marked = await post(`/api/listing/update/${created._id}`, {
      ...listingBody({ imageUrls: created.imageUrls }),
      publisherCover: cover,
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(await read(created._id)).toMatchObject({ publisherCover: cover });
  });

  it.each([
    ['a bad check digit', { isbn: '978-0-262-03384-9' }, /^isbn: That ISBN's check digit is wrong/],
    ['an X that is not the check digit', { isbn: '026203384X' }, /check digit is wrong/],
    ['an X in the middle', { isbn: '02620X3844' }, /^isbn: ISBN must be 10 or 13 digits/],
    ['a 12-digit ISBN', { isbn: '978-0-262-03384' }, /ISBN must be 10 or 13 digits/],
    ['an ISBN as a number', { isbn: 9780262033848 }, /^isbn: ISBN must be text/],
    ['an unknown subject', { subject: 'QUID' }, /^subject: Choose a subject from the list/],
    ['a long edition', { edition: 'x'.repeat(41) }, /^edition: Edition must be at most 40/],
    [
      "a publisher's cover that is not an image of the listing",
      { publisherCover: 'https://images.example.edu/other.jpg' },
      /publisher's cover must be one of the listing's images/,
    ],
  ])('refuses %s with a clear 400', async (_what, overrides, message) => {
    const res = await post('/api/listing/create', listingBody(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    expect(res.json().message).toMatch(message);
  });

  it.each([
    ['hyphens', '978-0-262-03384-8'],
    ['spaces', '978 0 262 03384 8'],
    ['an ISBN-10 ending in X', '0-8044-2957-X'],
  ])('accepts an ISBN with %s', async (_what, isbn) => {
    const created = await createListingAs(t, seller, { isbn });
    expect(created.isbn).toMatch(/^97[89]\d{10}$/);
  });
});
