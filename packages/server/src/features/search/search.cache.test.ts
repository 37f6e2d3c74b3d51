import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';

/**
 * Searches may be answered from memory (whole answers on the embedded engine, vocabulary matches on
 * both): whatever the cache, every write through the API shows in the very next search.
 */
describe(`search after every kind of write (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const names = async (query: string) => {
    const res = await t.app.inject(`/api/listing/get?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { name: string }[]).map((l) => l.name);
  };
  const as = (user: TestUser, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: user.cookie },
      ...(payload ? { payload } : {}),
    });

  it('uses the caches it should on this engine', () => {
    expect(t.app.listingCaches.searches !== null).toBe(TEST_ENGINE === 'pglite');
    expect(t.app.listingCaches.listings !== null).toBe(TEST_ENGINE === 'pglite');
  });

  it('create, rename, sell, relist, delete and account deletion each show at once', async () => {
    expect(await names('')).toEqual([]);
    expect(await names('searchTerm=thermodynamcs')).toEqual([]);

    const listing = await createListingAs(t, seller, { name: 'Thermodynamics' });
    expect(await names('')).toEqual(['Thermodynamics']);
    // A new word is a typo candidate at once, though the misspelling was searched (and cached) before.
    expect(await names('searchTerm=thermodynamcs')).toEqual(['Thermodynamics']);

    const body = listingBody({ name: 'Statics', imageUrls: listing.imageUrls });
    expect((await as(seller, 'POST', `/api/listing/update/${listing._id}`, body)).statusCode).toBe(
      200,
    );
    expect(await names('')).toEqual(['Statics']);
    expect(await names('searchTerm=thermodynamcs')).toEqual([]);

    expect((await as(seller, 'POST', `/api/listing/mark-as-sold/${listing._id}`)).statusCode).toBe(
      200,
    );
    expect(await names('')).toEqual([]);
    expect((await as(seller, 'POST', `/api/listing/relist/${listing._id}`)).statusCode).toBe(200);
    expect(await names('')).toEqual(['Statics']);
    expect((await as(seller, 'DELETE', `/api/listing/delete/${listing._id}`)).statusCode).toBe(200);
    expect(await names('')).toEqual([]);

    const other = await createUser(t);
    await createListingAs(t, other, { name: 'Dynamics' });
    expect(await names('searchTerm=dynamics')).toEqual(['Dynamics']);
    expect(
      (
        await as(other, 'DELETE', `/api/user/delete/${other.id}`, {
          currentPassword: other.password,
        })
      ).statusCode,
    ).toBe(200);
    expect(await names('searchTerm=dynamics')).toEqual([]);
  });

  it("answers a listing's id from its stored answer, changed by every write at once, by the visibility rule", async () => {
    const listing = await createListingAs(t, seller, { name: 'Kept Optics' });
    const url = `/api/listing/get/${listing._id}`;
    const first = await t.app.inject(url);
    const { success: _created, ...answer } = listing as typeof listing & { success?: true };
    expect(first.json()).toEqual(answer);
    // The same listing by an upper-case id (one cache entry, one answer).
    expect(
      (
        await t.app.inject(url.toUpperCase().replace('/API/LISTING/GET', '/api/listing/get'))
      ).json(),
    ).toEqual(answer);
    const body = listingBody({ name: 'Kept Acoustics', imageUrls: listing.imageUrls });
    expect((await as(seller, 'POST', `/api/listing/update/${listing._id}`, body)).statusCode).toBe(
      200,
    );
    expect((await t.app.inject(url)).json()).toMatchObject({ name: 'Kept Acoustics' });
    // Hidden by the moderators: a 404 at once for others, still the seller's to see.
    await t.database.db.execute(
      sql`UPDATE listings SET status = 'hidden' WHERE id = ${listing._id}`,
    );
    t.app.listingCaches.invalidate();
    expect((await t.app.inject(url)).statusCode).toBe(404);
    const stranger = await createUser(t);
    expect((await t.app.inject({ url, headers: { cookie: stranger.cookie } })).statusCode).toBe(
      404,
    );
    const own = await t.app.inject({ url, headers: { cookie: seller.cookie } });
    expect(own.json()).toMatchObject({ name: 'Kept Acoustics', status: 'hidden' });
    expect((await as(seller, 'DELETE', `/api/listing/delete/${listing._id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: { cookie: seller.cookie } })).statusCode).toBe(404);
  });
});
