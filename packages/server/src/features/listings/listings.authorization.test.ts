import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Listing } from '@campus-books/common/listing.schemas';
import { users } from '../../db/schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';

type Caller = 'anonymous' | 'unverified' | 'other seller' | 'owner';

/** Every listing route that takes an id, and the answer each caller gets. */
const ROUTES = [
  // The listing's own images are sent back unchanged (listings accept only the owner's uploads).
  {
    method: 'POST',
    path: 'update',
    body: (imageUrls?: string[]) =>
      listingBody({ name: 'Taken over', ...(imageUrls ? { imageUrls } : {}) }),
  },
  { method: 'POST', path: 'mark-as-sold' },
  { method: 'POST', path: 'relist' },
  { method: 'DELETE', path: 'delete' },
] as const;

const EXPECTED: Record<Exclude<Caller, 'owner'>, number> = {
  anonymous: 401,
  unverified: 403,
  'other seller': 403,
};

describe(`listings: only the owner changes a listing (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let owner: TestUser;
  let cookies: Record<Caller, string | undefined>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    cookies = {
      anonymous: undefined,
      unverified: (await createUser(t, { verified: false })).cookie,
      'other seller': (await createUser(t)).cookie,
      owner: owner.cookie,
    };
  });
  afterAll(() => t.close());

  const call = (
    route: (typeof ROUTES)[number],
    id: string,
    caller: Caller,
    imageUrls?: string[],
  ) => {
    const cookie = cookies[caller];
    return t.app.inject({
      method: route.method,
      url: `/api/listing/${route.path}/${id}`,
      headers: cookie ? { cookie } : {},
      ...('body' in route ? { payload: route.body(imageUrls) } : {}),
    });
  };
  const read = async (id: string) => (await t.app.inject(`/api/listing/get/${id}`)).json();

  for (const route of ROUTES) {
    for (const caller of Object.keys(EXPECTED) as (keyof typeof EXPECTED)[]) {
      it(`${route.method} ${route.path}: ${caller} gets ${EXPECTED[caller]} and nothing changes`, async () => {
        const listing: Listing = await createListingAs(t, owner);
        const before = await read(listing._id);
        const res = await call(route, listing._id, caller);
        expect(res.statusCode).toBe(EXPECTED[caller]);
        expect(res.json()).toMatchObject({ success: false, statusCode: EXPECTED[caller] });
        expect(await read(listing._id)).toEqual(before);
      });
    }

    it(`${route.method} ${route.path}: the owner succeeds`, async () => {
      const listing = await createListingAs(t, owner);
      const res = await call(route, listing._id, 'owner', listing.imageUrls);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true });
    });

    it(`${route.method} ${route.path}: an unknown or malformed id is 404 for a signed-in seller`, async () => {
      for (const id of ['6a0f3d2e-1b7c-4c7e-9a55-2b9e0c1d4f00', 'nope']) {
        const res = await call(route, id, 'other seller');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ message: 'Listing not found' });
      }
    });
  }

  it('an owner whose e-mail is no longer verified cannot change the listing', async () => {
    const lapsed = await createUser(t);
    const listing = await createListingAs(t, lapsed);
    await t.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, lapsed.id));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/listing/mark-as-sold/${listing._id}`,
      headers: { cookie: lapsed.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect((await read(listing._id)).status).toBe('active');
  });

  it('checks who is calling before the body: a signed-out invalid update is a 401', async () => {
    const listing = await createListingAs(t, owner);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/listing/update/${listing._id}`,
      payload: { name: '' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('creating a listing needs a verified, signed-in seller', async () => {
    for (const [caller, status] of [
      ['anonymous', 401],
      ['unverified', 403],
    ] as const) {
      const cookie = cookies[caller];
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/listing/create',
        headers: cookie ? { cookie } : {},
        payload: listingBody(),
      });
      expect(res.statusCode).toBe(status);
    }
  });
});
