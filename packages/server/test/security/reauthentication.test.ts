import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@campus-books/common/messages';
import { users } from '../../src/db/schema';
import { GENEROUS_LIMITS, post } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';

/**
 * Issue 11 item 4 (ASVS 2.1.6 / 2.5): a new password, a new e-mail and deleting the account need
 * the current password, not just a session someone may have left open.
 */
describe(`re-authentication for sensitive account changes (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...GENEROUS_LIMITS, RATE_LIMIT_SIGNIN_PER_ACCOUNT: '3' });
  });
  afterAll(() => t.close());

  const update = (user: TestUser, payload: object) =>
    post(t, `/api/user/update/${user.id}`, payload, user.cookie);
  const remove = (user: TestUser, payload?: object) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/user/delete/${user.id}`,
      headers: { cookie: user.cookie },
      ...(payload ? { payload } : {}),
    });
  const rowOf = async (id: string) =>
    (await t.database.db.select().from(users).where(eq(users.id, id)))[0];

  const missing = {
    success: false,
    statusCode: 400,
    message: MESSAGES.currentPasswordRequired,
    errors: [{ field: 'currentPassword', message: MESSAGES.currentPasswordRequired }],
  };
  const wrong = {
    success: false,
    statusCode: 400,
    message: MESSAGES.currentPasswordWrong,
    errors: [{ field: 'currentPassword', message: MESSAGES.currentPasswordWrong }],
  };

  it.each([
    ['a new password', { password: 'Changed-pw1' }],
    ['a new e-mail', { email: 'somewhere.new@richmond.edu' }],
  ])('refuses %s without the current password, or with a wrong one', async (_, change) => {
    const user = await createUser(t);
    const before = await rowOf(user.id);
    const none = await update(user, change);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(missing);
    const bad = await update(user, { ...change, currentPassword: 'not-my-pw' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(wrong);
    expect(await rowOf(user.id)).toEqual(before);
    const good = await update(user, { ...change, currentPassword: user.password });
    expect(good.statusCode).toBe(200);
  });

  it('changes names, avatar and GroupMe link without the password', async () => {
    const user = await createUser(t);
    const res = await update(user, {
      username: 'New Name',
      groupmelink: 'https://groupme.com/contact/77',
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses to delete the account without the current password, or with a wrong one', async () => {
    const user = await createUser(t);
    expect((await remove(user)).json()).toEqual(missing);
    expect((await remove(user, { currentPassword: 'not-my-pw' })).json()).toEqual(wrong);
    expect(await rowOf(user.id)).toBeDefined();
    const res = await remove(user, { currentPassword: user.password });
    expect(res.statusCode).toBe(200);
    expect(await rowOf(user.id)).toBeUndefined();
  });

  it('limits password guesses per account like sign-in (429, then even the right one waits)', async () => {
    const user = await createUser(t);
    const guesses = [];
    for (let i = 0; i < 3; i += 1) {
      guesses.push(
        (await update(user, { password: 'Changed-pw1', currentPassword: `g${i}xxxxx` })).statusCode,
      );
    }
    expect(guesses).toEqual([400, 400, 400]);
    const over = await remove(user, { currentPassword: 'guess-4' });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    const right = await update(user, { password: 'Changed-pw1', currentPassword: user.password });
    expect(right.statusCode).toBe(429);
    // Changes that need no password are not held up.
    expect((await update(user, { username: 'Still Me' })).statusCode).toBe(200);
  });
});
