import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, listings, users } from '../../src/db/schema';
import { createUpload, headUpload } from '../support/tus-test-client';
import { createUploadedImage } from '../support/test-uploaded-image';
import { createUser, TEST_ENGINE, type TestUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { checkAnswer } from './check-answer';
import { createAttackWorld, type AttackWorld } from './route-fixtures';
import { printFigure } from './security-helpers';

interface Party {
  user: TestUser;
  listingId: string;
  uploadId: string;
  imageId: string;
}

/**
 * The red team's class: a router and a library reading one URL differently. The attacker names
 * their own resource where the router looks (the path parameter) and the victim's where a library
 * might look instead (the last `/…` of the whole URL, a decoded `%2F`, a dot segment, a duplicate
 * parameter). Whatever the answer, nothing of the victim's may change.
 */
function disguises(own: string, victim: string): string[] {
  return [
    `${own}?x=/${victim}`,
    `${own}?x=%2F${victim}`,
    `${own}?id=${victim}`,
    `${own}?/${victim}`,
    `${own}#/${victim}`,
    `${own}%2F..%2F${victim}`,
    `${own}/..%2F${victim}`,
    `${own}%2F${victim}`,
    `${own};/${victim}`,
    `${own}/../${victim}`,
    `..%2F${victim}`,
    `${victim.toUpperCase()}`,
  ];
}

describe(`an id hidden in the query string or an encoded path (${TEST_ENGINE})`, () => {
  let w: AttackWorld;
  let attacker: Party;
  let victim: Party;
  const figures = { requests: 0, answers5xx: 0, victimChanged: 0 };

  async function party(): Promise<Party> {
    const user = await createUser(w.t);
    const listing = await createListingAs(w.t, user);
    const upload = await createUpload(w.t.app, user.cookie, 1000);
    const uploadId = upload.location!.split('/').at(-1)!;
    const imageUrl = await createUploadedImage(w.t, user.id);
    return { user, listingId: listing._id, uploadId, imageId: imageUrl.split('/').at(-2)! };
  }

  /** Everything of the victim's an attack could touch, as one comparable value. */
  async function victimState(): Promise<string> {
    const db = w.t.database.db;
    const [user] = await db.select().from(users).where(eq(users.id, victim.user.id));
    const [listing] = await db.select().from(listings).where(eq(listings.id, victim.listingId));
    const imageRows = await db
      .select()
      .from(images)
      .where(eq(images.ownerId, victim.user.id))
      .orderBy(images.id);
    const upload = await headUpload(w.t.app, victim.user.cookie, `/api/uploads/${victim.uploadId}`);
    return JSON.stringify({
      user,
      listing,
      imageRows,
      offset: upload.offset,
      head: upload.statusCode,
    });
  }

  beforeAll(async () => {
    w = await createAttackWorld();
    attacker = await party();
    victim = await party();
  });
  afterAll(async () => {
    printFigure(`url parsing (${TEST_ENGINE})`, figures);
    await w.t.close();
  });

  const routes: {
    method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
    path: (id: string) => string;
    ids: (p: Party) => string;
    body?: (p: Party) => unknown;
    tus?: boolean;
  }[] = [
    {
      method: 'POST',
      path: (id) => `/api/user/update/${id}`,
      ids: (p) => p.user.id,
      body: () => ({ username: 'Hijacked' }),
    },
    { method: 'GET', path: (id) => `/api/user/listings/${id}`, ids: (p) => p.user.id },
    {
      method: 'POST',
      path: (id) => `/api/listing/update/${id}`,
      ids: (p) => p.listingId,
      body: () => listingBody({ name: 'Hijacked' }),
    },
    { method: 'POST', path: (id) => `/api/listing/mark-as-sold/${id}`, ids: (p) => p.listingId },
    { method: 'DELETE', path: (id) => `/api/listing/delete/${id}`, ids: (p) => p.listingId },
    { method: 'HEAD', path: (id) => `/api/uploads/${id}`, ids: (p) => p.uploadId, tus: true },
    { method: 'PATCH', path: (id) => `/api/uploads/${id}`, ids: (p) => p.uploadId, tus: true },
    { method: 'DELETE', path: (id) => `/api/uploads/${id}`, ids: (p) => p.imageId, tus: true },
    { method: 'DELETE', path: (id) => `/api/uploads/${id}`, ids: (p) => p.uploadId, tus: true },
    { method: 'DELETE', path: (id) => `/api/user/delete/${id}`, ids: (p) => p.user.id },
  ];

  for (const route of routes) {
    it(`${route.method} ${route.path(':id')} acts on the path's id only`, async () => {
      const before = await victimState();
      for (const disguised of disguises(route.ids(attacker), route.ids(victim))) {
        const url = route.path(disguised);
        const res = await w.t.app.inject({
          method: route.method,
          url,
          headers: {
            cookie: attacker.user.cookie,
            ...(route.tus
              ? {
                  'tus-resumable': '1.0.0',
                  'upload-offset': '0',
                  'content-type': 'application/offset+octet-stream',
                }
              : { 'content-type': 'application/json' }),
          },
          ...(route.method === 'PATCH'
            ? { payload: Buffer.alloc(10, 1) }
            : route.body
              ? { payload: JSON.stringify(route.body(attacker)) }
              : {}),
        });
        figures.requests += 1;
        if (res.statusCode >= 500) figures.answers5xx += 1;
        checkAnswer(res, `${route.method} ${url}`);
        const after = await victimState();
        if (after !== before) figures.victimChanged += 1;
        expect(after, `${route.method} ${url} changed the victim's data`).toBe(before);
      }
    });
  }

  it('hid nothing from the figures', () => {
    expect(figures.answers5xx).toBe(0);
    expect(figures.victimChanged).toBe(0);
  });
});
