import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, users } from '../../db/schema';
import { GENEROUS_LIMITS, post, signUpBody } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { lastMailTo, mailsTo, tokenFromLink } from '../../../test/outbox';
import { AUTH_MESSAGES } from './auth.messages';

describe(`e-mail verification (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  async function signUp() {
    const body = signUpBody();
    expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
    return body;
  }
  const invalid = { success: false, statusCode: 400, message: AUTH_MESSAGES.verifyInvalid };

  it('refuses sign-in until the mailed link is used, then admits it; the link works once', async () => {
    const body = await signUp();
    const before = await post(t, '/api/auth/signin', body);
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe(AUTH_MESSAGES.notVerified);
    expect(before.json().message).toMatch(/not verified.*Resend verification e-mail/);
    expect(before.cookies).toEqual([]);

    const token = tokenFromLink(await lastMailTo(t, body.email), 'verify-email');
    const verified = await post(t, '/api/auth/verify-email', { token });
    expect(verified.json()).toEqual({ success: true, message: AUTH_MESSAGES.emailVerified });
    expect((await post(t, '/api/auth/signin', body)).statusCode).toBe(200);

    // Used again once the address is verified: "already verified, sign in", not "invalid".
    const again = await post(t, '/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      success: true,
      alreadyVerified: true,
      message: AUTH_MESSAGES.alreadyVerified,
    });
  });

  it('a used link of an account still unverified stays invalid', async () => {
    const body = await signUp();
    const token = tokenFromLink(await lastMailTo(t, body.email), 'verify-email');
    await t.database.db.execute(sql`UPDATE email_tokens SET used_at = now() WHERE used_at IS NULL`);
    expect((await post(t, '/api/auth/verify-email', { token })).json()).toEqual(invalid);
  });

  it('refuses an unknown, empty or expired link with a clear message', async () => {
    const unknown = await post(t, '/api/auth/verify-email', { token: 'x'.repeat(43) });
    expect(unknown.json()).toEqual(invalid);
    expect((await post(t, '/api/auth/verify-email', { token: '' })).statusCode).toBe(400);
    expect((await post(t, '/api/auth/verify-email', {})).statusCode).toBe(400);

    const body = await signUp();
    const token = tokenFromLink(await lastMailTo(t, body.email), 'verify-email');
    await t.database.db.execute(
      sql`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    expect((await post(t, '/api/auth/verify-email', { token })).json()).toEqual(invalid);
  });

  it('does not accept a password reset link as a verification link', async () => {
    const user = await createUser(t, { verified: false });
    await post(t, '/api/auth/forgot-password', { email: user.email });
    const token = tokenFromLink(await lastMailTo(t, user.email), 'reset-password');
    expect((await post(t, '/api/auth/verify-email', { token })).statusCode).toBe(400);
  });

  it('resend-verification mails a new working link, and answers the same for every address', async () => {
    const body = await signUp();
    const verifiedUser = await createUser(t);
    const answers = await Promise.all(
      [body.email, verifiedUser.email, 'nobody@richmond.edu'].map((email) =>
        post(t, '/api/auth/resend-verification', { email }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: AUTH_MESSAGES.verificationResent });
    }
    expect(await mailsTo(t, verifiedUser.email)).toEqual([]);
    expect(await mailsTo(t, 'nobody@richmond.edu')).toEqual([]);

    const mails = await mailsTo(t, body.email);
    expect(mails).toHaveLength(2);
    const token = tokenFromLink(mails[1]!, 'verify-email');
    expect((await post(t, '/api/auth/verify-email', { token })).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, body.email));
    expect(row!.emailVerifiedAt).not.toBeNull();
  });

  it('stores no usable token: the database holds only hashes', async () => {
    const body = await signUp();
    const token = tokenFromLink(await lastMailTo(t, body.email), 'verify-email');
    const rows = await t.database.db.select().from(emailTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
