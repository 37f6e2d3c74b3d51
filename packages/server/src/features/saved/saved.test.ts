import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';

describe(`saved listings (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let saver: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    seller = await createUser(t);
    saver = await createUser(t);
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const save = (user: TestUser | null, id: string) =>
    route('POST /api/saved/add/:id', { as: user, params: { id } });
  const savedOf = (user: TestUser | null) => route('GET /api/saved/get', { as: user });
  const sellerDoes = (action: 'mark-as-sold' | 'relist', id: string) =>
    route(`POST /api/listing/${action}/:id`, { as: seller, params: { id } });

  it('saves, lists (sold ones as sold) and removes; saving twice keeps one', async () => {
    const a = await createListingAs(t, seller, { name: 'Saved One' });
    const b = await createListingAs(t, seller, { name: 'Saved Two' });
    expect((await save(saver, a._id)).status).toBe(200);
    expect((await save(saver, a._id)).status).toBe(200);
    expect((await save(saver, b._id)).status).toBe(200);
    await sellerDoes('mark-as-sold', a._id);
    const listed = dataOf(await savedOf(saver));
    expect(listed.map((l) => [l._id, l.status])).toEqual([
      [b._id, 'active'],
      [a._id, 'sold'],
    ]);
    expect(
      (await route('DELETE /api/saved/remove/:id', { as: saver, params: { id: b._id } })).status,
    ).toBe(200);
    const after = dataOf(await savedOf(saver));
    expect(after.map((l) => l._id)).toEqual([a._id]);
    // Nobody else sees them.
    expect(dataOf(await savedOf(seller))).toEqual([]);
  });

  it('answers 401 signed out, 403 unverified, 404 for an unknown listing', async () => {
    const a = await createListingAs(t, seller);
    expect((await save(null, a._id)).status).toBe(401);
    expect((await savedOf(null)).status).toBe(401);
    const unverified = await createUser(t, { verified: false });
    expect((await save(unverified, a._id)).status).toBe(403);
    const missing = await save(saver, '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a');
    expect(missing.status).toBe(404);
    expect((await save(saver, 'nope')).status).toBe(404);
  });

  it('mails savers once when the price drops and once when it sells; never the seller', async () => {
    const other = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Cheaper Soon', regularPrice: 50 });
    await save(other, listing._id);
    await save(seller, listing._id);
    const update = (price: number) =>
      route('POST /api/listing/update/:id', {
        as: seller,
        params: { id: listing._id },
        body: listingBody({
          name: 'Cheaper Soon',
          imageUrls: listing.imageUrls,
          regularPrice: price,
        }),
      });
    expect((await update(60)).status).toBe(200);
    await t.app.jobs.runDue();
    expect(await mailsTo(t, other.email)).toHaveLength(0);

    expect((await update(35)).status).toBe(200);
    await t.app.jobs.runDue();
    const dropped = await mailsTo(t, other.email);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.text).toContain('Now $35');
    expect(dropped[0]!.text).toContain(`${t.config.publicUrl}/listing/${listing._id}`);

    await sellerDoes('mark-as-sold', listing._id);
    await t.app.jobs.runDue();
    const sold = await mailsTo(t, other.email);
    expect(sold).toHaveLength(2);
    expect(sold[1]!.text).toContain('Sold');
    // Sold again after a relist: the saver already heard.
    await sellerDoes('relist', listing._id);
    await sellerDoes('mark-as-sold', listing._id);
    await t.app.jobs.runDue();
    expect(await mailsTo(t, other.email)).toHaveLength(2);
    expect(await mailsTo(t, seller.email)).toHaveLength(0);
  });
});
