import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
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

  const route = routeCaller(() => t);
  const names = async (searchTerm?: string) => {
    const res = await route('GET /api/listing/get', { query: { searchTerm } });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res).map((l) => l.name);
  };
  const update = (id: string, body: ApiCallOptions<'POST /api/listing/update/:id'>['body']) =>
    route('POST /api/listing/update/:id', { as: seller, params: { id }, body });
  const byId = (id: string, user?: TestUser) =>
    route('GET /api/listing/get/:id', { as: user, params: { id } });
  const own = (verb: 'mark-as-sold' | 'relist', id: string) =>
    route(`POST /api/listing/${verb}/:id`, { as: seller, params: { id } });
  const deleteListing = (id: string) =>
    route('DELETE /api/listing/delete/:id', { as: seller, params: { id } });

  it('uses the caches it should on this engine', () => {
    expect(t.app.listingCaches.searches !== null).toBe(TEST_ENGINE === 'pglite');
  });

  it('create, rename, sell, relist, delete and account deletion each show at once', async () => {
    expect(await names()).toEqual([]);
    expect(await names('thermodynamcs')).toEqual([]);

    const listing = await createListingAs(t, seller, { name: 'Thermodynamics' });
    expect(await names()).toEqual(['Thermodynamics']);
    // A new word is a typo candidate at once, though the misspelling was searched (and cached) before.
    expect(await names('thermodynamcs')).toEqual(['Thermodynamics']);

    const body = listingBody({ name: 'Statics', imageUrls: listing.imageUrls });
    expect((await update(listing._id, body)).status).toBe(200);
    expect(await names()).toEqual(['Statics']);
    expect(await names('thermodynamcs')).toEqual([]);

    expect((await own('mark-as-sold', listing._id)).status).toBe(200);
    expect(await names()).toEqual([]);
    expect((await own('relist', listing._id)).status).toBe(200);
    expect(await names()).toEqual(['Statics']);
    expect((await deleteListing(listing._id)).status).toBe(200);
    expect(await names()).toEqual([]);

    const other = await createUser(t);
    await createListingAs(t, other, { name: 'Dynamics' });
    expect(await names('dynamics')).toEqual(['Dynamics']);
    const gone = await route('DELETE /api/user/delete/:id', {
      as: other,
      params: { id: other.id },
      body: { currentPassword: other.password },
    });
    expect(gone.status).toBe(200);
    expect(await names('dynamics')).toEqual([]);
  });

  it("answers a listing's id from its stored answer, changed by every write at once, by the visibility rule", async () => {
    const listing = await createListingAs(t, seller, { name: 'Kept Optics' });
    const first = await byId(listing._id);
    const { success: _created, ...answer } = listing as typeof listing & { success?: true };
    expect(dataOf(first)).toEqual(answer);
    // The same listing by an upper-case id (one cache entry, one answer).
    expect(dataOf(await byId(listing._id.toUpperCase()))).toEqual(answer);
    const body = listingBody({ name: 'Kept Acoustics', imageUrls: listing.imageUrls });
    expect((await update(listing._id, body)).status).toBe(200);
    expect(dataOf(await byId(listing._id))).toMatchObject({ name: 'Kept Acoustics' });
    // Hidden by the moderators: a 404 at once for others, still the seller's to see.
    await t.database.db.execute(
      sql`UPDATE listings SET status = 'hidden' WHERE id = ${listing._id}`,
    );
    t.app.listingCaches.invalidate();
    expect((await byId(listing._id)).status).toBe(404);
    const stranger = await createUser(t);
    expect((await byId(listing._id, stranger)).status).toBe(404);
    const mine = dataOf(await byId(listing._id, seller));
    expect(mine).toMatchObject({ name: 'Kept Acoustics', status: 'hidden' });
    expect((await deleteListing(listing._id)).status).toBe(200);
    expect((await byId(listing._id, seller)).status).toBe(404);
  });
});
