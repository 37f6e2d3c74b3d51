import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_MESSAGES } from '@campus-books/common/text';
import { listings } from '../../src/db/schema';
import { GENEROUS_LIMITS, post, signUpBody } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';

/**
 * Issue 11 item 10 (text hygiene): control, line-break and text-direction characters are refused
 * in names; stored and searched text is NFC, so a decomposed "é" finds a composed one. Issue 26
 * item 7: invisible characters are removed from every text field, and alerts follow the same rule.
 */
describe(`text hygiene (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  it.each([
    [{ firstName: 'Ada\r\nBcc: x' }, `firstName: ${TEXT_MESSAGES.control}`],
    [{ lastName: 'Evil\u202Etxt.exe' }, `lastName: ${TEXT_MESSAGES.bidi}`],
    [{ firstName: '\u200B\u200D' }, 'First name is required'],
  ])('sign-up refuses %j with a clear 400', async (change, message) => {
    const res = await post(t, '/api/auth/signup', signUpBody(change));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400, message });
  });

  it('the profile refuses a username with a control character', async () => {
    const res = await post(
      t,
      `/api/user/update/${seller.id}`,
      { username: 'Me\u0007' },
      seller.cookie,
    );
    expect(res.json()).toMatchObject({
      statusCode: 400,
      message: `username: ${TEXT_MESSAGES.control}`,
    });
  });

  it('stores listing text in NFC, and a decomposed search term finds the composed title', async () => {
    const composed = 'Caf\u00e9 Fran\u00e7ais';
    const listing = await createListingAs(t, seller, {
      name: 'Cafe\u0301 Franc\u0327ais',
      pickupLocation: 'Cafe\u0301',
    });
    const [row] = await t.database.db.select().from(listings).where(eq(listings.id, listing._id));
    expect(row).toMatchObject({ name: composed, pickupLocation: 'Caf\u00e9' });

    const term = encodeURIComponent('cafe\u0301');
    const res = await t.app.inject({ url: `/api/listing/get?searchTerm=${term}` });
    expect(res.statusCode).toBe(200);
    const names = (res.json() as { name: string }[]).map((l) => l.name);
    expect(names).toContain(composed);
  });

  it('stores a name without its invisible characters, so the search finds it (issue 26 item 7)', async () => {
    const listing = await createListingAs(t, seller, {
      name: 'Cal\u200Bcu\u200Dlus Zyxwv',
      description: 'Like\u2060 new\uFEFF',
      address: 'Boat\u200Bwright',
      authors: 'Ste\u00ADwart',
      courseNumber: '1\u200B01',
    });
    expect(listing).toMatchObject({ name: 'Calculus Zyxwv', courseNumber: '101' });
    const [row] = await t.database.db.select().from(listings).where(eq(listings.id, listing._id));
    expect(row).toMatchObject({
      name: 'Calculus Zyxwv',
      description: 'Like new',
      address: 'Boatwright',
      authors: 'Stewart',
    });
    for (const term of ['calculus zyxwv', 'Cal\u200Bcu\u200Dlus zyxwv']) {
      const res = await t.app.inject({
        url: `/api/listing/get?searchTerm=${encodeURIComponent(term)}`,
      });
      expect(res.statusCode, term).toBe(200);
      expect((res.json() as { _id: string }[]).map((l) => l._id)).toEqual([listing._id]);
    }
  });

  it.each([
    ['a right-to-left override', 'calc\u202Eulus', TEXT_MESSAGES.bidi],
    ['a direction mark', '\u200Fcalculus', TEXT_MESSAGES.bidi],
    ['an escape', 'calc\u001Bulus', TEXT_MESSAGES.control],
  ])('a search refuses a term with %s, as docs/api/listings.md says', async (_, term, message) => {
    const res = await t.app.inject({
      url: `/api/listing/get?searchTerm=${encodeURIComponent(term)}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Invalid parameter 'searchTerm': ${message}`);
  });

  it.each([
    ['a right-to-left override', { searchTerm: 'calc\u202Eulus' }, TEXT_MESSAGES.bidi],
    ['a line break', { searchTerm: 'calculus\r\nBcc: x' }, TEXT_MESSAGES.control],
    ['an isolate in a course number', { courseNumber: '1\u2066' }, TEXT_MESSAGES.bidi],
  ])('an alert refuses %s with a 400 naming the field', async (_, body, message) => {
    const res = await post(t, '/api/alerts/create', body, seller.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`${Object.keys(body)[0]}: ${message}`);
  });

  it('an alert term of invisible characters only is no term', async () => {
    const res = await post(t, '/api/alerts/create', { searchTerm: '\u200B\u200D' }, seller.cookie);
    expect(res.json()).toMatchObject({
      statusCode: 400,
      message: 'Choose what to look for: a title, an ISBN, a course or a major',
    });
    const stripped = await post(
      t,
      '/api/alerts/create',
      { searchTerm: 'Cal\u200Bculus' },
      seller.cookie,
    );
    expect(stripped.statusCode).toBe(201);
    expect(stripped.json().searchTerm).toBe('Calculus');
  });
});
