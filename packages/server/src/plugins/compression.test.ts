import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { insertListings } from '../../test/listing-fixtures';

describe(`compressed answers (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(
      t,
      seller.id,
      Array.from({ length: 9 }, (_, i) => ({ name: `Organic Chemistry volume ${i}` })),
    );
  });
  afterAll(() => t.close());

  it('gzips a search answer for a client that accepts it, and the body is the same JSON', async () => {
    const plain = await t.app.inject('/api/listing/get');
    const zipped = await t.app.inject({
      url: '/api/listing/get',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('prefers brotli when offered', async () => {
    const res = await t.app.inject({
      url: '/api/listing/get',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('leaves small answers alone', async () => {
    const res = await t.app.inject({ url: '/api/config', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
