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
import { createListingAs } from '../../../test/listing-fixtures';

describe(`GET /api/user/listings/{id} (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
    other = await createUser(t);
  });
  afterAll(() => t.close());

  const mine = (id: string, cookie?: string) =>
    t.app.inject({ url: `/api/user/listings/${id}`, headers: cookie ? { cookie } : {} });

  it("lists the seller's own listings, active and sold, newest first", async () => {
    const first = await createListingAs(t, seller, { name: 'First Book' });
    const second = await createListingAs(t, seller, { name: 'Second Book' });
    await createListingAs(t, other, { name: 'Not Mine' });
    // Same-millisecond inserts are possible: give the rows distinct, known dates.
    await t.database.db
      .update(listings)
      .set({ createdAt: new Date('2026-01-01') })
      .where(eq(listings.id, first._id));
    await t.database.db
      .update(listings)
      .set({ createdAt: new Date('2026-02-01') })
      .where(eq(listings.id, second._id));
    await t.app.inject({
      method: 'POST',
      url: `/api/listing/mark-as-sold/${first._id}`,
      headers: { cookie: seller.cookie },
    });

    const res = await mine(seller.id, seller.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((l: { name: string; status: string }) => [l.name, l.status])).toEqual([
      ['Second Book', 'active'],
      ['First Book', 'sold'],
    ]);
    expect(res.json()[0]).toMatchObject({ _id: second._id, userRef: seller.id, school: 'Bschool' });
  });

  it('answers an empty list for a seller without listings', async () => {
    const newcomer = await createUser(t);
    expect((await mine(newcomer.id, newcomer.cookie)).json()).toEqual([]);
  });

  it("refuses anyone else's list (403) and anonymous callers (401)", async () => {
    expect((await mine(seller.id, other.cookie)).statusCode).toBe(403);
    expect((await mine('not-a-user-id', other.cookie)).statusCode).toBe(403);
    const anonymous = await mine(seller.id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, statusCode: 401 });
  });
});
