import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { apiRoutes } from '@campus-books/common/api-routes';
import { TOTAL_COUNT_HEADER } from '@campus-books/common/constants';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { courseAnswer } from '../courses/courses.service';
import { eq } from 'drizzle-orm';
import { listings } from '../../db/schema';

/**
 * A search, a course's answer and a listing by id answered from memory go
 * out as bytes kept ready (lib/ready-answer.ts): the same bytes as the answer written for the first
 * asker, in the encoding the client accepts, with an ETag that a revalidation answers with a 304.
 */
describe(`answers from memory as ready bytes (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let listingId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    // Long enough to be compressed (over the 1 KB threshold).
    for (let i = 0; i < 6; i += 1) {
      const listing = await createListingAs(t, seller, {
        name: `Principles of Economics, part ${i}`,
        description: 'With a long description, '.repeat(12),
        subject: 'ECON',
        courseNumber: '101',
      });
      listingId = listing._id;
    }
  });
  afterAll(() => t.close());

  const ask = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const text = (res: Awaited<ReturnType<typeof ask>>) => {
    const encoding = res.headers['content-encoding'];
    if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
    if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
    expect(encoding).toBeUndefined();
    return res.payload;
  };

  const addresses = [
    '/api/listing/get',
    '/api/listing/get?searchTerm=economics&sort=regularPrice',
    '/api/course/ECON-101',
    'listing',
  ];

  it.each(addresses)(
    '%s: one text in every encoding, miss or hit, with its ETag and a 304',
    async (address) => {
      const url = address === 'listing' ? `/api/listing/get/${listingId}` : address;
      const first = await ask(url, { 'accept-encoding': 'br, gzip' });
      expect(first.statusCode, first.payload).toBe(200);
      const json = text(first);
      expect(json.length).toBeGreaterThan(1024);
      for (const [acceptEncoding, coding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['gzip;q=1, br;q=0', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const res = await ask(url, { 'accept-encoding': acceptEncoding });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(coding);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
        expect(text(res)).toBe(json);
        const etag = res.headers.etag as string;
        expect(etag).toMatch(/^"[\w-]+"$/);
        // The client's copy is this version: 304, no body.
        const again = await ask(url, { 'accept-encoding': acceptEncoding, 'if-none-match': etag });
        expect(again.statusCode).toBe(304);
        expect(again.payload).toBe('');
        expect(again.headers.etag).toBe(etag);
      }
      if (address.startsWith('/api/listing/get')) {
        expect(first.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('6');
      }
    },
  );

  it("a course's kept bytes are what the route's schema serializer writes", async () => {
    const code = apiRoutes['GET /api/course/:code'].params.parse({ code: 'ECON-101' }).code;
    const serialize = serializerCompiler({
      schema: apiRoutes['GET /api/course/:code'].response,
      method: 'GET',
      url: '/api/course/:code',
    });
    const expected = serialize(await courseAnswer(t.app.database.db, code));
    await ask('/api/course/ECON-101'); // kept
    const hit = await ask('/api/course/ECON-101', { 'accept-encoding': 'br' });
    expect(text(hit)).toBe(expected);
  });

  it("a listing's edit gives its new text a new ETag, whichever server wrote it", async () => {
    const url = `/api/listing/get/${listingId}`;
    const before = await ask(url, { 'accept-encoding': 'br' });
    expect(text(before)).not.toContain('Second edition');
    // Written straight in the database, as another app server would: its NOTIFY empties the caches.
    await t.app.database.db
      .update(listings)
      .set({ name: 'Principles of Economics, Second edition' })
      .where(eq(listings.id, listingId));
    const after = await ask(url, {
      'accept-encoding': 'br',
      'if-none-match': before.headers.etag as string,
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(text(after)).toContain('Second edition');
  });

  it('a change of the catalogue gives a new ETag', async () => {
    const before = await ask('/api/listing/get', { 'accept-encoding': 'br' });
    const seller = await createUser(t);
    await createListingAs(t, seller, {
      name: 'Macroeconomics',
      subject: 'ECON',
      courseNumber: '101',
    });
    const after = await ask('/api/listing/get', {
      'accept-encoding': 'br',
      'if-none-match': before.headers.etag as string,
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(text(after)).toContain('Macroeconomics');
  });
});
