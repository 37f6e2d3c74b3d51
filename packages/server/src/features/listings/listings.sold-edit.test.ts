import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';

/** A sold listing is shown as sold and frozen; the owner relists it to change it (product decisions). */
describe(`listings: editing a sold listing (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: seller.cookie },
      ...(payload ? { payload } : {}),
    });
  const read = async (id: string) => (await t.app.inject(`/api/listing/get/${id}`)).json();

  it('refuses to edit a sold listing with 409 and changes nothing; after a relist the edit goes through', async () => {
    const listing = await createListingAs(t, seller, { name: 'Organic Chemistry' });
    expect((await post(`/api/listing/mark-as-sold/${listing._id}`)).statusCode).toBe(200);
    const before = await read(listing._id);

    const newImage = await createUploadedImage(t, seller.id);
    const edit = listingBody({ name: 'Physical Chemistry', imageUrls: [newImage] });
    const refused = await post(`/api/listing/update/${listing._id}`, edit);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      statusCode: 409,
      message: 'Relist it first to edit',
    });
    expect(await read(listing._id)).toEqual(before);

    expect((await post(`/api/listing/relist/${listing._id}`)).statusCode).toBe(200);
    const updated = await post(`/api/listing/update/${listing._id}`, edit);
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Physical Chemistry',
      status: 'active',
      imageUrls: [newImage],
    });
  });

  it('never edits a listing that became sold while the edit was on its way', async () => {
    const listing = await createListingAs(t, seller, { name: 'Microeconomics' });
    const edit = listingBody({ name: 'Macroeconomics', imageUrls: listing.imageUrls });
    const answers = await Promise.all([
      post(`/api/listing/mark-as-sold/${listing._id}`),
      ...Array.from({ length: 24 }, () => post(`/api/listing/update/${listing._id}`, edit)),
    ]);
    expect(answers[0]!.statusCode).toBe(200);
    const updates = answers.slice(1).map((res) => res.statusCode);
    expect(updates.every((status) => status === 200 || status === 409)).toBe(true);
    const after = await read(listing._id);
    expect(after.status).toBe('sold');
    // An edit answered 200 happened before the sale: each 409 left the listing untouched.
    expect(after.name).toBe(updates.includes(200) ? 'Macroeconomics' : 'Microeconomics');
  });
});
