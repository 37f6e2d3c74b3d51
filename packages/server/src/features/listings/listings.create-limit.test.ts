import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingBody } from '../../../test/listing-fixtures';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';

/** One account created 100 listings in 0.7 s and filled the home page (issue 11, item 10c). */
describe(`listings created per account and hour (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_LISTINGS_PER_ACCOUNT: '20' });
  });
  afterAll(() => t.close());

  it('25 concurrent creations by one account: exactly 20 succeed, the rest 429', async () => {
    const seller = await createUser(t);
    const imageUrls = [];
    for (let i = 0; i < 25; i++) imageUrls.push(await createUploadedImage(t, seller.id));
    const answers = await Promise.all(
      imageUrls.map((url, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/listing/create',
          headers: { cookie: seller.cookie },
          payload: listingBody({ name: `Book ${i}`, imageUrls: [url] }),
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    console.log(
      `[figure] listing creation: ${codes.filter((c) => c === 201).length}/25 concurrent creations accepted, ${codes.filter((c) => c === 429).length} refused (limit 20/hour)`,
    );
    expect(codes.filter((c) => c === 201)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Another account is not affected.
    const other = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/listing/create',
      headers: { cookie: other.cookie },
      payload: listingBody({ imageUrls: [await createUploadedImage(t, other.id)] }),
    });
    expect(res.statusCode).toBe(201);
  }, 60_000);

  it('a signed-out caller still hears 401 first', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/listing/create',
      payload: listingBody(),
    });
    expect(res.statusCode).toBe(401);
  });
});
