import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import { TEXT_MESSAGES } from '@campus-books/common/text';
import { listings } from '../../src/db/schema';
import { GENEROUS_LIMITS, signUpBody } from '../accounts';
import { routeCaller } from '../api-caller';
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
  const route = routeCaller(() => t);
  const search = (searchTerm: string) => route('GET /api/listing/get', { query: { searchTerm } });
  const createAlert = (body: { searchTerm?: string; courseNumber?: string }) =>
    route('POST /api/alerts/create', { as: seller, body });

  it.each([
    [{ firstName: 'Ada\r\nBcc: x' }, `firstName: ${TEXT_MESSAGES.control}`],
    [{ lastName: 'Evil\u202Etxt.exe' }, `lastName: ${TEXT_MESSAGES.bidi}`],
    [{ firstName: '\u200B\u200D' }, 'First name is required'],
  ])('sign-up refuses %j with a clear 400', async (change, message) => {
    const res = await route('POST /api/auth/signup', { body: signUpBody(change) });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ success: false, statusCode: 400, message });
  });

  it('the profile refuses a username with a control character', async () => {
    const res = await route('POST /api/user/update/:id', {
      as: seller,
      params: { id: seller.id },
      body: { username: 'Me\u0007' },
    });
    expect(errorOf(res)).toMatchObject({
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

    const res = await search('cafe\u0301');
    expect(res.status).toBe(200);
    const names = dataOf(res).map((l) => l.name);
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
      const res = await search(term);
      expect(res.status, term).toBe(200);
      expect(dataOf(res).map((l) => l._id)).toEqual([listing._id]);
    }
  });

  it.each([
    ['a right-to-left override', 'calc\u202Eulus', TEXT_MESSAGES.bidi],
    ['a direction mark', '\u200Fcalculus', TEXT_MESSAGES.bidi],
    ['an escape', 'calc\u001Bulus', TEXT_MESSAGES.control],
  ])('a search refuses a term with %s, as docs/api/listings.md says', async (_, term, message) => {
    const res = await search(term);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(`Invalid parameter 'searchTerm': ${message}`);
  });

  it.each([
    ['a right-to-left override', { searchTerm: 'calc\u202Eulus' }, TEXT_MESSAGES.bidi],
    ['a line break', { searchTerm: 'calculus\r\nBcc: x' }, TEXT_MESSAGES.control],
    ['an isolate in a course number', { courseNumber: '1\u2066' }, TEXT_MESSAGES.bidi],
  ])('an alert refuses %s with a 400 naming the field', async (_, body, message) => {
    const res = await createAlert(body);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(`${Object.keys(body)[0]}: ${message}`);
  });

  it('an alert term of invisible characters only is no term', async () => {
    const res = await createAlert({ searchTerm: '\u200B\u200D' });
    expect(errorOf(res)).toMatchObject({
      statusCode: 400,
      message: 'Choose what to look for: a title, an ISBN, a course or a major',
    });
    const stripped = await createAlert({ searchTerm: 'Cal\u200Bculus' });
    expect(stripped.status).toBe(201);
    expect(dataOf(stripped).searchTerm).toBe('Calculus');
  });
});
