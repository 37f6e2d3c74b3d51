import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { listingBody } from '../../../test/listing-fixtures';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';
import { BAD_IDEMPOTENCY_KEY } from './idempotency-key';

describe(`listings: create with an Idempotency-Key (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    // Idempotency alone: the hourly creation limit (20) would refuse copies 21–25 of a burst.
    t = await createTestApp({ RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000' });
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const create = (user: TestUser, payload: object, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/listing/create',
      headers: { cookie: user.cookie, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload,
    });
  const countOf = async (userId: string) =>
    (await t.database.db.select().from(listings).where(eq(listings.userId, userId))).length;

  it('25 copies of one create arriving at once make one listing, and every answer names it', async () => {
    const user = await createUser(t);
    const body = listingBody({ imageUrls: [await createUploadedImage(t, user.id)] });
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 25 }, () => create(user, body, key)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(201));
    const ids = new Set(answers.map((a) => (a.json() as { _id: string })._id));
    expect(ids.size).toBe(1);
    expect(await countOf(user.id)).toBe(1);
    // A retry later gets the same answer too.
    const retry = await create(user, body, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ success: true, _id: [...ids][0] });
    expect(await countOf(user.id)).toBe(1);
  });

  it('a new key makes a new listing; a request without the header still works', async () => {
    const user = await createUser(t);
    const body = listingBody({ imageUrls: [await createUploadedImage(t, user.id)] });
    const first = await create(user, body, randomUUID());
    const second = await create(user, body, randomUUID());
    const plain = await create(user, body);
    expect([first.statusCode, second.statusCode, plain.statusCode]).toEqual([201, 201, 201]);
    expect(new Set([first, second, plain].map((a) => a.json()._id)).size).toBe(3);
    expect(await countOf(user.id)).toBe(3);
  });

  it("one user's key never answers another user's listing", async () => {
    const other = await createUser(t);
    const key = randomUUID();
    const mine = await create(
      seller,
      listingBody({ imageUrls: [await createUploadedImage(t, seller.id)] }),
      key,
    );
    const theirs = await create(
      other,
      listingBody({ imageUrls: [await createUploadedImage(t, other.id)] }),
      key,
    );
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.json()._id).not.toBe(mine.json()._id);
    expect(theirs.json().userRef).toBe(other.id);
  });

  it.each([['a key with a space'], [''], ['x'.repeat(201)]])(
    'refuses a malformed key (%j) with a 400 and creates nothing',
    async (key) => {
      const user = await createUser(t);
      const body = listingBody({ imageUrls: [await createUploadedImage(t, user.id)] });
      const res = await create(user, body, key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: BAD_IDEMPOTENCY_KEY });
      expect(await countOf(user.id)).toBe(0);
    },
  );
});
