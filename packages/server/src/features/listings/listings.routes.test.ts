import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { campusValues as campus } from '../../../test/campus-values';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';

describe(`listings: create, read, update, sold, relist, delete (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: unknown, cookie = seller.cookie) =>
    t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const read = (id: string) => t.app.inject(`/api/listing/get/${id}`);
  /** The campus's schools: listingBody chooses the second (as the original API's flag). */
  const school = (i: number) => campus.school(i);

  it('creates a listing owned by the signed-in seller and reads it back', async () => {
    const imageUrls = [await createUploadedImage(t, seller.id)];
    const res = await post(
      '/api/listing/create',
      listingBody({ [school(2).key]: true, imageUrls }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      success: true,
      name: 'Calculus: Early Transcendentals',
      courseNumber: '211',
      regularPrice: 20,
      discountPrice: 0,
      condition: 'good',
      schools: [school(1).key, school(2).key],
      [school(0).key]: false,
      [school(1).key]: true,
      [school(2).key]: true,
      school: `${school(1).label}, ${school(2).label}`,
      major: campus.major(0).value,
      type: 'sale',
      status: 'active',
      userRef: seller.id,
      pickupLocation: null,
    });
    expect(created._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const got = await read(created._id);
    expect(got.statusCode).toBe(200);
    const { success: _success, ...listing } = created;
    expect(got.json()).toEqual(listing);
  });

  it('takes the owner from the session and ignores server-owned fields in the body', async () => {
    const other = await createUser(t);
    const res = await post(
      '/api/listing/create',
      listingBody({
        imageUrls: [await createUploadedImage(t, seller.id)],
        userRef: other.id,
        _id: '00000000-0000-4000-8000-000000000000',
        id: '00000000-0000-4000-8000-000000000000',
        status: 'sold',
        createdAt: '2001-01-01T00:00:00.000Z',
        user_id: other.id,
        school: 'Hacked',
      }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.userRef).toBe(seller.id);
    expect(created._id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(created.status).toBe('active');
    expect(created.createdAt).not.toBe('2001-01-01T00:00:00.000Z');
    expect(created.school).toBe(school(1).label);
    expect((await read('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('answers 404 "Listing not found" for an unknown or malformed id', async () => {
    for (const id of ['3f1c9a52-8f0e-4a4e-9d55-0d1f7f5e2c11', 'not-an-id', "1' OR '1'='1", '%00']) {
      const res = await read(encodeURIComponent(id));
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        statusCode: 404,
        message: 'Listing not found',
      });
    }
  });

  it('updates every editable field, and only those', async () => {
    const listing = await createListingAs(t, seller);
    const res = await post(
      `/api/listing/update/${listing._id}`,
      listingBody({
        name: 'Linear Algebra Done Right',
        courseNumber: 245,
        condition: 'mint',
        regularPrice: 1234.5,
        pickupLocation: 'The student union, north doors',
        imageUrls: await Promise.all(
          Array.from({ length: 6 }, () => createUploadedImage(t, seller.id)),
        ),
        [school(1).key]: false,
        [school(0).key]: true,
        major: campus.major(3).value,
        type: 'rent',
        userRef: (await createUser(t)).id,
        status: 'sold',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Listing updated',
      _id: listing._id,
      name: 'Linear Algebra Done Right',
      courseNumber: '245',
      condition: 'mint',
      regularPrice: 1234.5,
      pickupLocation: 'The student union, north doors',
      schools: [school(0).key],
      [school(0).key]: true,
      [school(1).key]: false,
      school: school(0).label,
      major: campus.major(3).value,
      type: 'rent',
      userRef: seller.id,
      status: 'active',
      createdAt: listing.createdAt,
    });
    expect(res.json().imageUrls).toHaveLength(6);
    expect((await read(listing._id)).json().name).toBe('Linear Algebra Done Right');
  });

  it('marks a listing sold (out of search) and relists it (back in search)', async () => {
    const listing = await createListingAs(t, seller, { name: 'Atlas of Human Anatomy' });
    const inSearch = async () =>
      (await t.app.inject('/api/listing/get?searchTerm=anatomy'))
        .json()
        .map((l: { _id: string }) => l._id);
    expect(await inSearch()).toEqual([listing._id]);

    const sold = await post(`/api/listing/mark-as-sold/${listing._id}`);
    expect(sold.statusCode).toBe(200);
    expect(sold.json()).toEqual({ success: true, message: 'Listing marked as sold' });
    expect((await read(listing._id)).json().status).toBe('sold');
    expect(await inSearch()).toEqual([]);

    const relisted = await post(`/api/listing/relist/${listing._id}`);
    expect(relisted.json()).toEqual({ success: true, message: 'Listing is for sale again' });
    expect((await read(listing._id)).json().status).toBe('active');
    expect(await inSearch()).toEqual([listing._id]);
  });

  it('deletes a listing', async () => {
    const listing = await createListingAs(t, seller);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/listing/delete/${listing._id}`,
      headers: { cookie: seller.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Listing deleted' });
    expect((await read(listing._id)).statusCode).toBe(404);
  });
});
