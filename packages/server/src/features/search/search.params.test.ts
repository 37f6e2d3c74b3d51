import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';

describe(`GET /api/listing/get: hostile and malformed parameters (${TEST_ENGINE})`, () => {
  let t: TestApp;
  const ACTIVE = 3;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      { name: 'Calculus' },
      { name: 'Organic Chemistry' },
      { name: 'Microeconomics' },
    ]);
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  // Raw query strings: hostile and malformed ones (repeated, unknown, out of range) are the point.
  const search = (query: string) => t.app.inject(`/api/listing/get?${query}`);

  it('treats SQL in any parameter as plain text', async () => {
    const payloads = [
      "'; DROP TABLE listings; --",
      "x' OR '1'='1",
      "calculus' || pg_sleep(5) || '",
      '1); SELECT pg_sleep(5); --',
      '$x %% \\',
    ];
    for (const payload of payloads) {
      const value = encodeURIComponent(payload);
      for (const param of ['searchTerm', 'major', 'courseNumber']) {
        const res = await search(`${param}=${value}`);
        // A value longer than the parameter allows is a 400; anything else finds nothing.
        if (res.statusCode === 400) expect(res.json().message).toContain(`'${param}'`);
        else expect(res.json(), `${param}=${payload}`).toEqual([]);
      }
    }
    const all = await route('GET /api/listing/get', { query: { limit: 50 } });
    expect(all.status).toBe(200);
    expect(dataOf(all)).toHaveLength(ACTIVE);
  });

  it.each([
    ['foo=bar', 'foo'],
    ['sort=name', 'sort'],
    ['order=up', 'order'],
    ['limit=500', 'limit'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['startIndex=-1', 'startIndex'],
    ['startIndex=1.5', 'startIndex'],
    ['condition=good&condition=mint', 'condition'],
    ['searchTerm=a&searchTerm=b', 'searchTerm'],
    ['condition=new', 'condition'],
    ['Jepson=yes', 'Jepson'],
    ['status=sold', 'status'],
    ['type=swap', 'type'],
  ])('refuses %s with a 400 naming the parameter', async (query, param) => {
    const res = await search(query);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, statusCode: 400 });
    expect(body.message).toContain(`'${param}'`);
  });
});
