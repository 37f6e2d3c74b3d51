import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_MESSAGES } from '@campus-books/common/text';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { fingerprint } from './security-helpers';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in a request must be refused before any
 * handler with a 400 naming the field (it once reached the search as `searchTerm=%00` and answered
 * 500 on PGlite). A field with a rule answers its own documented message, as for any other control
 * character; the guard's own message is for what no rule reads.
 */
describe(`NUL characters in requests are refused with a 400 (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let listingId: string;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
    buyer = await createUser(t);
    listingId = (await createListingAs(t, seller))._id;
  });
  afterAll(() => t.close());

  it.each(['searchTerm', 'major', 'courseNumber', 'sort'])(
    'in the search parameter %s: the answer any other control character gets',
    async (param) => {
      for (const value of ['\u0000', 'calc\u0000ulus']) {
        const res = await t.app.inject({ url: '/api/listing/get', query: { [param]: value } });
        const escape = await t.app.inject({
          url: '/api/listing/get',
          query: { [param]: value.replace('\u0000', '\u001B') },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
        expect(res.json().message).toBe(escape.json().message);
      }
      const term = await t.app.inject({
        url: '/api/listing/get',
        query: { searchTerm: 'a\u0000' },
      });
      expect(term.json().message).toBe(`Invalid parameter 'searchTerm': ${TEXT_MESSAGES.control}`);
    },
  );

  it("in a JSON body, nested or not: each field's own message, and nothing is written", async () => {
    const before = await fingerprint(t.database);
    const requests = [
      {
        url: '/api/listing/create',
        payload: listingBody({ name: 'Calc\u0000ulus' }),
        field: 'name',
        message: TEXT_MESSAGES.control,
      },
      {
        url: `/api/listing/update/${listingId}`,
        payload: listingBody({ imageUrls: ['https://x.example/a\u0000.jpg'] }),
        field: 'imageUrls.0',
      },
      {
        url: `/api/user/update/${seller.id}`,
        payload: { username: 'a\u0000b' },
        field: 'username',
        message: TEXT_MESSAGES.control,
      },
      {
        url: '/api/auth/signup',
        payload: {
          firstName: 'Ada',
          lastName: 'L',
          email: 'n\u0000@richmond.edu',
          password: 'Passw0rd!',
        },
        field: 'email',
      },
      {
        url: '/api/conversations',
        payload: { listingId, text: 'Is it still\u0000 available?' },
        field: 'text',
        message: TEXT_MESSAGES.control,
        who: buyer,
      },
    ];
    for (const { url, payload, field, message, who } of requests) {
      const send = (body: unknown) =>
        t.app.inject({
          method: 'POST',
          url,
          headers: { cookie: (who ?? seller).cookie },
          payload: body as object,
        });
      const res = await send(payload);
      const escape = await send(
        JSON.parse(JSON.stringify(payload).replaceAll('\\u0000', '\\u001b')),
      );
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      // What a NUL answers is what an escape character in its place answers.
      expect(res.json().message, url).toBe(escape.json().message);
      expect(res.json().errors[0].field, url).toBe(field);
      if (message) {
        expect(res.json()).toMatchObject({
          message: `${field}: ${message}`,
          errors: [{ field, message }],
        });
      }
    }
    expect(await fingerprint(t.database)).toBe(before);
  });

  it('where no rule reads the text (a password), the guard refuses it before any handler', async () => {
    const before = await fingerprint(t.database);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: seller.email, password: 'Pass\u0000word' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'password: must not contain the NUL character (\\u0000)',
      errors: [{ field: 'password', message: 'must not contain the NUL character (\\u0000)' }],
    });
    expect(await fingerprint(t.database)).toBe(before);
  });

  it('a search term without NUL still works next to it', async () => {
    const res = await t.app.inject({ url: '/api/listing/get', query: { searchTerm: 'calculus' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
  });
});
