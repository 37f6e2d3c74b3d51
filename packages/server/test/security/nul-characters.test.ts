import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { fingerprint } from './security-helpers';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in a request must be refused up front with
 * a 400 naming the field (it once reached the search as `searchTerm=%00` and answered 500 on PGlite).
 */
describe(`NUL characters in requests are refused with a 400 (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let listingId: string;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
    listingId = (await createListingAs(t, seller))._id;
  });
  afterAll(() => t.close());

  it.each(['searchTerm', 'major', 'courseNumber', 'sort'])(
    'in the search parameter %s',
    async (param) => {
      for (const value of ['\u0000', 'calc\u0000ulus']) {
        const res = await t.app.inject({ url: '/api/listing/get', query: { [param]: value } });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({
          success: false,
          statusCode: 400,
          message: `Invalid parameter '${param}': must not contain the NUL character (\\u0000)`,
        });
      }
    },
  );

  it('in a JSON body, nested or not, and nothing is written', async () => {
    const before = await fingerprint(t.database);
    const requests = [
      {
        url: '/api/listing/create',
        payload: listingBody({ name: 'Calc\u0000ulus' }),
        field: 'name',
      },
      {
        url: `/api/listing/update/${listingId}`,
        payload: { description: 'ok', imageUrls: ['https://x.example/a\u0000.jpg'] },
        field: 'imageUrls.0',
      },
      {
        url: `/api/user/update/${seller.id}`,
        payload: { username: 'a\u0000b' },
        field: 'username',
      },
      {
        url: '/api/auth/signup',
        payload: { username: 'x', email: 'n\u0000@richmond.edu', password: 'Passw0rd!' },
        field: 'email',
      },
    ];
    for (const { url, payload, field } of requests) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: seller.cookie },
        payload,
      });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        message: `${field}: must not contain the NUL character (\\u0000)`,
        errors: [{ field, message: 'must not contain the NUL character (\\u0000)' }],
      });
    }
    expect(await fingerprint(t.database)).toBe(before);
  });

  it('a search term without NUL still works next to it', async () => {
    const res = await t.app.inject({ url: '/api/listing/get', query: { searchTerm: 'calculus' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
  });
});
