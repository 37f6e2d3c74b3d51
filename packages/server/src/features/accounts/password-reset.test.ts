import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@campus-books/common/messages';
import { emailTokens, users } from '../../db/schema';
import { get, GENEROUS_LIMITS, post } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { lastMailTo, mailsTo, tokenFromLink } from '../../../test/outbox';
import { AUTH_MESSAGES } from './auth.messages';

describe(`forgot and reset password (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...GENEROUS_LIMITS, PUBLIC_URL: 'https://books.example.edu' });
  });
  afterAll(() => t.close());

  async function resetLinkFor(email: string) {
    await post(t, '/api/auth/forgot-password', { email });
    return tokenFromLink(await lastMailTo(t, email), 'reset-password');
  }
  const invalid = { success: false, statusCode: 400, message: AUTH_MESSAGES.resetInvalid };

  it('answers the same for an existing and an unknown account; only the account gets a mail', async () => {
    const user = await createUser(t);
    const known = await post(t, '/api/auth/forgot-password', { email: user.email });
    const unknown = await post(t, '/api/auth/forgot-password', { email: 'ghost@richmond.edu' });
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'If an account exists for that e-mail, we sent a link to reset the password.',
      });
    }
    expect(await mailsTo(t, 'ghost@richmond.edu')).toEqual([]);
    const mail = await lastMailTo(t, user.email);
    expect(mail.subject).toBe('Reset your Campus Books password');
    expect(mail.text).toMatch(/https:\/\/books\.example\.edu\/reset-password\/[A-Za-z0-9_-]{43}\b/);
    const [row] = await t.database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.userId, user.id));
    const lifetimeMinutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(lifetimeMinutes).toBeCloseTo(60, 0);
  });

  it('validates the e-mail of forgot-password', async () => {
    const res = await post(t, '/api/auth/forgot-password', { email: '' });
    expect(res.json()).toMatchObject({ statusCode: 400, message: MESSAGES.emailRequired });
  });

  it('sets the new password with the mailed link, once, and ends every session', async () => {
    const user = await createUser(t, { password: 'Old-pass-1' });
    const otherDevice = await post(t, '/api/auth/signin', {
      email: user.email,
      password: 'Old-pass-1',
    });
    const otherCookie = `cb_session=${otherDevice.cookies.find((c) => c.name === 'cb_session')!.value}`;
    const token = await resetLinkFor(user.email);

    // A passphrase: longer than the old app's 12 characters.
    const passphrase = 'a new and rather long passphrase, 2 of them';
    const res = await post(t, `/api/auth/reset-password/${token}`, { password: passphrase });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: AUTH_MESSAGES.passwordReset });

    for (const cookie of [user.cookie, otherCookie]) {
      expect((await get(t, '/api/auth/me', cookie)).statusCode).toBe(401);
    }
    const oldPassword = await post(t, '/api/auth/signin', {
      email: user.email,
      password: 'Old-pass-1',
    });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await post(t, '/api/auth/signin', {
      email: user.email,
      password: passphrase,
    });
    expect(newPassword.statusCode).toBe(200);

    const again = await post(t, `/api/auth/reset-password/${token}`, { password: 'Third-pw-3' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalid);
  });

  it('gives exactly one success to 25 parallel uses of one link', async () => {
    const user = await createUser(t);
    const token = await resetLinkFor(user.email);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        post(t, `/api/auth/reset-password/${token}`, { password: `Parallel-${i}` }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(24);
  });

  it('retires older reset links once the password is reset', async () => {
    const user = await createUser(t);
    const first = await resetLinkFor(user.email);
    const second = await resetLinkFor(user.email);
    expect(
      (await post(t, `/api/auth/reset-password/${second}`, { password: 'Newer-pw-1' })).statusCode,
    ).toBe(200);
    expect(
      (await post(t, `/api/auth/reset-password/${first}`, { password: 'Older-pw-1' })).json(),
    ).toEqual(invalid);
  });

  it('refuses unknown, expired and verification links', async () => {
    expect(
      (await post(t, '/api/auth/reset-password/nope', { password: 'Whatever-1' })).json(),
    ).toEqual(invalid);

    const user = await createUser(t);
    const token = await resetLinkFor(user.email);
    await t.database.db.execute(
      sql`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    expect(
      (await post(t, `/api/auth/reset-password/${token}`, { password: 'Whatever-1' })).json(),
    ).toEqual(invalid);
    expect(
      (await post(t, '/api/auth/signin', { email: user.email, password: user.password }))
        .statusCode,
    ).toBe(200);
  });

  it.each([
    [{ password: 'short' }, MESSAGES.passwordLength],
    [{ password: '1'.repeat(129) }, MESSAGES.passwordLength],
    [{ password: '' }, MESSAGES.passwordRequired],
    [{}, MESSAGES.passwordRequired],
  ])('checks the new password %j before using the link', async (body, message) => {
    const user = await createUser(t);
    const token = await resetLinkFor(user.email);
    const res = await post(t, `/api/auth/reset-password/${token}`, body);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400, message });
    // The link still works after a refused password.
    expect(
      (await post(t, `/api/auth/reset-password/${token}`, { password: 'Good-pass-1' })).statusCode,
    ).toBe(200);
  });

  it('verifies the e-mail of an unverified account (the link proved access to the inbox)', async () => {
    const user = await createUser(t, { verified: false });
    const token = await resetLinkFor(user.email);
    await post(t, `/api/auth/reset-password/${token}`, { password: 'Fresh-pw-1' });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailVerifiedAt).not.toBeNull();
    expect(
      (await post(t, '/api/auth/signin', { email: user.email, password: 'Fresh-pw-1' })).statusCode,
    ).toBe(200);
  });
});
