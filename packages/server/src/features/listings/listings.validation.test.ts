import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@campus-books/common/messages';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';

describe(`listings: validation of spec section 5 (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: seller.cookie }, payload });
  const read = (id: string) => t.app.inject(`/api/listing/get/${id}`);

  const createWith = (overrides: Record<string, unknown>) =>
    post('/api/listing/create', listingBody(overrides));
  const images = (n: number) =>
    Array.from({ length: n }, (_, i) => `https://images.example.edu/${i}.jpg`);

  it.each([
    ['a missing name', { name: undefined }, MESSAGES.nameRequired],
    ['a blank name', { name: '   ' }, MESSAGES.nameRequired],
    ['a 63-character name', { name: 'x'.repeat(63) }, MESSAGES.nameTooLong],
    ['a missing course number', { courseNumber: undefined }, MESSAGES.courseNumberRequired],
    ['an empty course number', { courseNumber: '' }, MESSAGES.courseNumberRequired],
    ['a missing price', { regularPrice: undefined }, MESSAGES.priceRequired],
    ['a negative price', { regularPrice: -1 }, MESSAGES.priceRange],
    ['a price over 10,000,000', { regularPrice: 10_000_001 }, MESSAGES.priceRange],
    ['no images', { imageUrls: [] }, MESSAGES.imagesRequired],
    ['a missing image list', { imageUrls: undefined }, MESSAGES.imagesRequired],
    ['four images on create', { imageUrls: images(4) }, MESSAGES.imagesOnCreate],
    ['a price with three decimals', { regularPrice: 12.345 }, MESSAGES.priceCents],
    [
      'a 201-character pickup location',
      { pickupLocation: 'p'.repeat(201) },
      MESSAGES.pickupLocationTooLong,
    ],
    ['a number as the description', { description: 5 }, MESSAGES.descriptionText],
  ])('refuses %s on create', async (_what, overrides, message) => {
    const res = await createWith(overrides);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400, message });
  });

  it('accepts the limits themselves: a 62-character name, prices 0 and 10,000,000, 3 images', async () => {
    // Listings accept only the seller's own uploads.
    const own = (n: number) =>
      Promise.all(Array.from({ length: n }, () => createUploadedImage(t, seller.id)));
    for (const overrides of [
      { name: 'x'.repeat(62), regularPrice: 0, imageUrls: await own(3) },
      { regularPrice: 10_000_000, imageUrls: await own(1) },
    ]) {
      expect((await createWith(overrides)).statusCode).toBe(201);
    }
  });

  it.each([
    ['seven images', { imageUrls: images(7) }, MESSAGES.imagesPerListing],
    ['no images', { imageUrls: [] }, MESSAGES.imagesRequired],
    [
      'a discount above the price',
      { regularPrice: 10, discountPrice: 10.01 },
      MESSAGES.discountAboveRegular,
    ],
    ['a 63-character name', { name: 'y'.repeat(63) }, MESSAGES.nameTooLong],
    ['a price over 10,000,000', { regularPrice: 20_000_000 }, MESSAGES.priceRange],
  ])('refuses %s on update and leaves the listing unchanged', async (_what, overrides, message) => {
    const listing = await createListingAs(t, seller);
    const res = await post(`/api/listing/update/${listing._id}`, listingBody(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    const { success: _success, ...before } = listing as typeof listing & { success: true };
    expect((await read(listing._id)).json()).toEqual(before);
  });

  it('applies the discount rule on update only, as the spec says', async () => {
    const [image] = await Promise.all([createUploadedImage(t, seller.id)]);
    const res = await createWith({ regularPrice: 5, discountPrice: 6, imageUrls: [image] });
    expect(res.statusCode).toBe(201);
  });

  it('takes back a listing exactly as the API answered it (pickupLocation null reads as empty)', async () => {
    const listing = await createListingAs(t, seller);
    const { success: _success, ...answered } = listing as typeof listing & { success: true };
    expect(answered.pickupLocation).toBeNull();
    const res = await post(`/api/listing/update/${listing._id}`, answered);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, _id: listing._id, pickupLocation: null });
  });

  it('stores a price with cents exactly, never rounded', async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 19.99 });
    expect((await read(listing._id)).json().regularPrice).toBe(19.99);
  });

  it('refuses a non-http image URL such as javascript:', async () => {
    const res = await createWith({ imageUrls: ['javascript:alert(1)'] });
    expect(res.statusCode).toBe(400);
  });
});
