import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';

type Actor = 'anonymous' | 'unverified' | 'otherVerified' | 'owner';

describe(`who may use /api/user/* (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let owner: TestUser;
  let actors: Record<Exclude<Actor, 'anonymous'>, TestUser>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    actors = {
      unverified: await createUser(t, { verified: false }),
      otherVerified: await createUser(t),
      owner,
    };
  });
  afterAll(() => t.close());

  const cookieOf = (actor: Actor) =>
    actor === 'anonymous' ? {} : { cookie: actors[actor].cookie };
  const ownerRow = async () =>
    (await t.database.db.select().from(users).where(eq(users.id, owner.id)))[0]!;

  it.each([
    ['anonymous', 401],
    ['unverified', 403],
    ['otherVerified', 403],
  ] as const)('update by %s is %i and changes nothing', async (actor, status) => {
    const before = await ownerRow();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/user/update/${owner.id}`,
      headers: cookieOf(actor),
      payload: { username: 'Hacked', groupmelink: 'https://groupme.com/evil' },
    });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, statusCode: status });
    expect(await ownerRow()).toEqual(before);
  });

  it.each([
    ['anonymous', 401],
    ['unverified', 403],
    ['otherVerified', 403],
  ] as const)('delete by %s is %i and deletes nothing', async (actor, status) => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/delete/${owner.id}`,
      headers: cookieOf(actor),
    });
    expect(res.statusCode).toBe(status);
    expect(await ownerRow()).toBeDefined();
    expect(
      (await t.app.inject({ url: '/api/auth/me', headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(200);
  });

  it.each([
    ['anonymous', 401],
    ['unverified', 403],
    ['otherVerified', 200],
    ['owner', 200],
  ] as const)('get by %s is %i, and shows only the contact fields', async (actor, status) => {
    const res = await t.app.inject({ url: `/api/user/get/${owner.id}`, headers: cookieOf(actor) });
    expect(res.statusCode).toBe(status);
    if (status === 200) {
      expect(res.json()).toEqual({
        success: true,
        _id: owner.id,
        username: owner.username,
        groupmelink: owner.groupmelink,
      });
    }
  });

  it('answers a malformed or unknown id with a 4xx, never 500', async () => {
    const viewer = { cookie: actors.otherVerified.cookie };
    const unknown = '6f1c2f4e-8d2a-4b7e-9c1d-2a3b4c5d6e7f';
    const getUnknown = await t.app.inject({ url: `/api/user/get/${unknown}`, headers: viewer });
    expect(getUnknown.statusCode).toBe(404);
    expect(getUnknown.json()).toMatchObject({ success: false, statusCode: 404 });
    for (const id of ['not-a-uuid', '1', "' OR 1=1 --"]) {
      const url = encodeURIComponent(id);
      expect(
        (await t.app.inject({ url: `/api/user/get/${url}`, headers: viewer })).statusCode,
      ).toBe(400);
      const update = await t.app.inject({
        method: 'POST',
        url: `/api/user/update/${url}`,
        headers: viewer,
        payload: { username: 'x' },
      });
      expect(update.statusCode).toBe(403);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/user/delete/${url}`,
        headers: viewer,
      });
      expect(del.statusCode).toBe(403);
    }
  });

  it('lets the owner update and, last, delete', async () => {
    const update = await t.app.inject({
      method: 'POST',
      url: `/api/user/update/${owner.id}`,
      headers: { cookie: owner.cookie },
      payload: { username: 'Owner' },
    });
    expect(update.statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/delete/${owner.id}`,
      headers: { cookie: owner.cookie },
      payload: { currentPassword: owner.password },
    });
    expect(del.statusCode).toBe(200);
  });
});
