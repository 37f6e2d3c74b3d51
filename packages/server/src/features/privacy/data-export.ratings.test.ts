import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { rowsOf } from '../../db/rows';
import { collectStudentData } from './data-export';

const DAY = 24 * 60 * 60_000;

describe(`the data export's ratings (${TEST_ENGINE})`, () => {
  let t: TestApp;
  const studentDataDeps = () => ({
    db: t.app.database.db,
    now: () => t.app.jobs.now(),
    revealMs: t.app.config.ratings.revealMs,
  });
  let clock = new Date();
  let seller: TestUser;
  let buyer: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS, { now: () => clock });
    seller = await createUser(t);
    buyer = await createUser(t);
  });
  afterAll(() => t.close());

  it('holds the ratings the student gave, and those received once revealed', async () => {
    const listing = await createListingAs(t, seller, { name: 'Exported Exchange' });
    await t.app.inject({
      method: 'POST',
      url: '/api/conversations',
      headers: { cookie: buyer.cookie },
      payload: { listingId: listing._id, text: 'Hello' },
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/conversations/listing/${listing._id}/sold`,
      headers: { cookie: seller.cookie },
      payload: { buyerId: buyer.id },
    });
    const [exchange] = await rowsOf<{ id: string }>(
      t.database.db,
      sql`SELECT id FROM exchanges WHERE listing_id = ${listing._id}`,
    );
    const rate = (user: TestUser, body: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/ratings/exchanges/${exchange!.id}`,
        headers: { cookie: user.cookie },
        payload: body,
      });
    expect((await rate(buyer, { positive: true, comment: 'Buyer says thanks' })).statusCode).toBe(
      201,
    );

    const sellerData = (await collectStudentData(studentDataDeps(), seller.id))!;
    expect(sellerData.exchanges).toEqual([
      expect.objectContaining({ listingName: 'Exported Exchange', role: 'seller' }),
    ]);
    // Not revealed yet: the seller's export does not hold the buyer's words.
    expect(sellerData.ratings.received).toEqual([]);
    const buyerData = (await collectStudentData(studentDataDeps(), buyer.id))!;
    expect(buyerData.ratings.given).toEqual([
      expect.objectContaining({ role: 'buyer', positive: true, comment: 'Buyer says thanks' }),
    ]);

    clock = new Date(Date.now() + 15 * DAY);
    const later = (await collectStudentData(studentDataDeps(), seller.id))!;
    expect(later.ratings.received).toEqual([
      expect.objectContaining({ raterRole: 'buyer', comment: 'Buyer says thanks' }),
    ]);
    expect(JSON.stringify(later)).not.toContain(buyer.email);
  });
});
