import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller } from '../../../test/api-caller';
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

  const call = apiCaller(() => t);

  it('saves, lists (sold ones as sold) and removes; saving twice keeps one', async () => {
    const a = await createListingAs(t, seller, { name: 'Saved One' });
    const b = await createListingAs(t, seller, { name: 'Saved Two' });
    expect((await call(saver, 'POST', `/api/saved/add/${a._id}`)).statusCode).toBe(200);
    expect((await call(saver, 'POST', `/api/saved/add/${a._id}`)).statusCode).toBe(200);
    expect((await call(saver, 'POST', `/api/saved/add/${b._id}`)).statusCode).toBe(200);
    await call(seller, 'POST', `/api/listing/mark-as-sold/${a._id}`);
    const listed = (await call(saver, 'GET', '/api/saved/get')).json() as {
      _id: string;
      status: string;
    }[];
    expect(listed.map((l) => [l._id, l.status])).toEqual([
      [b._id, 'active'],
      [a._id, 'sold'],
    ]);
    expect((await call(saver, 'DELETE', `/api/saved/remove/${b._id}`)).statusCode).toBe(200);
    const after = (await call(saver, 'GET', '/api/saved/get')).json() as { _id: string }[];
    expect(after.map((l) => l._id)).toEqual([a._id]);
    // Nobody else sees them.
    expect((await call(seller, 'GET', '/api/saved/get')).json()).toEqual([]);
  });

  it('answers 401 signed out, 403 unverified, 404 for an unknown listing', async () => {
    const a = await createListingAs(t, seller);
    expect((await call(null, 'POST', `/api/saved/add/${a._id}`)).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/saved/get')).statusCode).toBe(401);
    const unverified = await createUser(t, { verified: false });
    expect((await call(unverified, 'POST', `/api/saved/add/${a._id}`)).statusCode).toBe(403);
    const missing = await call(
      saver,
      'POST',
      '/api/saved/add/0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a',
    );
    expect(missing.statusCode).toBe(404);
    expect((await call(saver, 'POST', '/api/saved/add/nope')).statusCode).toBe(404);
  });

  it('mails savers once when the price drops and once when it sells; never the seller', async () => {
    const other = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Cheaper Soon', regularPrice: 50 });
    await call(other, 'POST', `/api/saved/add/${listing._id}`);
    await call(seller, 'POST', `/api/saved/add/${listing._id}`);
    const update = (price: number) =>
      call(seller, 'POST', `/api/listing/update/${listing._id}`, {
        ...listingBody({ name: 'Cheaper Soon', imageUrls: listing.imageUrls }),
        regularPrice: price,
      });
    expect((await update(60)).statusCode).toBe(200);
    await t.app.jobs.runDue();
    expect(await mailsTo(t, other.email)).toHaveLength(0);

    expect((await update(35)).statusCode).toBe(200);
    await t.app.jobs.runDue();
    const dropped = await mailsTo(t, other.email);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.text).toContain('Now $35');
    expect(dropped[0]!.text).toContain(`${t.config.publicUrl}/listing/${listing._id}`);

    await call(seller, 'POST', `/api/listing/mark-as-sold/${listing._id}`);
    await t.app.jobs.runDue();
    const sold = await mailsTo(t, other.email);
    expect(sold).toHaveLength(2);
    expect(sold[1]!.text).toContain('Sold');
    // Sold again after a relist: the saver already heard.
    await call(seller, 'POST', `/api/listing/relist/${listing._id}`);
    await call(seller, 'POST', `/api/listing/mark-as-sold/${listing._id}`);
    await t.app.jobs.runDue();
    expect(await mailsTo(t, other.email)).toHaveLength(2);
    expect(await mailsTo(t, seller.email)).toHaveLength(0);
  });
});
