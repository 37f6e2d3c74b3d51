import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, listings, sessions, users } from '../../db/schema';
import { get, GENEROUS_LIMITS, post } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';

describe(`DELETE /api/user/delete/:id (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  it('deletes the account with its listings, sessions and tokens, and signs out', async () => {
    const user = await createUser(t);
    const bystander = await createUser(t);
    await t.database.db.insert(listings).values(
      [user, bystander].map((u) => ({
        userId: u.id,
        name: 'Calculus',
        courseNumber: '101',
        condition: 'good' as const,
        regularPrice: 20,
      })),
    );
    await post(t, '/api/auth/forgot-password', { email: user.email });

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/delete/${user.id}`,
      headers: { cookie: user.cookie },
      payload: { currentPassword: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Your account was deleted.' });
    expect(res.cookies.find((c) => c.name === 'cb_session')?.value).toBe('');

    const { db } = t.database;
    expect(await db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await db.select().from(listings).where(eq(listings.userId, user.id))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await db.select().from(emailTokens).where(eq(emailTokens.userId, user.id))).toEqual([]);
    expect(await db.select().from(listings).where(eq(listings.userId, bystander.id))).toHaveLength(
      1,
    );
    expect((await get(t, '/api/auth/me', user.cookie)).statusCode).toBe(401);
    const signIn = await post(t, '/api/auth/signin', {
      email: user.email,
      password: user.password,
    });
    expect(signIn.statusCode).toBe(401);
  });
});
