import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
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

  const create = (
    user: TestUser,
    body: ApiCallOptions<'POST /api/listing/create'>['body'],
    key?: string,
  ) =>
    routeCaller(() => t)('POST /api/listing/create', {
      as: user,
      headers: key === undefined ? {} : { 'idempotency-key': key },
      body,
    });
  const countOf = async (userId: string) =>
    (await t.database.db.select().from(listings).where(eq(listings.userId, userId))).length;

  it('25 copies of one create arriving at once make one listing, and every answer names it', async () => {
    const user = await createUser(t);
    const body = listingBody({ imageUrls: [await createUploadedImage(t, user.id)] });
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 25 }, () => create(user, body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(201));
    const ids = new Set(answers.map((a) => dataOf(a)._id));
    expect(ids.size).toBe(1);
    expect(await countOf(user.id)).toBe(1);
    // A retry later gets the same answer too.
    const retry = await create(user, body, key);
    expect(retry.status).toBe(201);
    expect(dataOf(retry)).toMatchObject({ success: true, _id: [...ids][0] });
    expect(await countOf(user.id)).toBe(1);
  });

  it('a new key makes a new listing; a request without the header still works', async () => {
    const user = await createUser(t);
    const body = listingBody({ imageUrls: [await createUploadedImage(t, user.id)] });
    const first = await create(user, body, randomUUID());
    const second = await create(user, body, randomUUID());
    const plain = await create(user, body);
    expect([first.status, second.status, plain.status]).toEqual([201, 201, 201]);
    expect(new Set([first, second, plain].map((a) => dataOf(a)._id)).size).toBe(3);
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
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(dataOf(theirs)._id).not.toBe(dataOf(mine)._id);
    expect(dataOf(theirs).userRef).toBe(other.id);
  });

  it.each([['a key with a space'], [''], ['x'.repeat(201)]])(
    'refuses a malformed key (%j) with a 400 and creates nothing',
    async (key) => {
      const user = await createUser(t);
      const body = listingBody({ imageUrls: [await createUploadedImage(t, user.id)] });
      const res = await create(user, body, key);
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ success: false, message: BAD_IDEMPOTENCY_KEY });
      expect(await countOf(user.id)).toBe(0);
    },
  );
});
