import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, get, post, sessionCookieOf, signUpBody } from '../accounts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema';
import { createTestApp, signInAs, TEST_ENGINE, type TestApp } from '../helpers';
import { mailsTo, tokenFromLink } from '../outbox';
import { AUTH_MESSAGES } from '../../src/features/accounts/auth.messages';

/**
 * Pre-account hijack (issue 11 item 3): an attacker signs up with a student's address and never
 * verifies; the student's own sign-up must not hand the student a link that verifies the
 * attacker's account (docs/decisions/008-pre-account-hijack.md).
 */
describe(`pre-account hijack (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  it("the victim's link sets the victim's password; the attacker's password and link stop working", async () => {
    const attacker = signUpBody({ firstName: 'Mallory', lastName: 'Evil', password: 'Attacker-1' });
    const email = attacker.email;
    expect((await post(t, '/api/auth/signup', attacker)).statusCode).toBe(201);
    const attackerToken = tokenFromLink((await mailsTo(t, email))[0]!, 'verify-email');
    // The attacker cannot verify (no inbox) but can sign in up to the 403, and keep any session.
    expect((await post(t, '/api/auth/signin', { email, password: 'Attacker-1' })).statusCode).toBe(
      403,
    );

    const victim = signUpBody({
      email,
      firstName: 'Vera',
      lastName: 'Victim',
      password: 'Victim-123',
    });
    const answer = await post(t, '/api/auth/signup', victim);
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({ success: true, message: AUTH_MESSAGES.signedUp });
    const mails = await mailsTo(t, email);
    expect(mails).toHaveLength(2);
    const victimToken = tokenFromLink(mails[1]!, 'verify-email');

    const verified = await post(t, '/api/auth/verify-email', { token: victimToken });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ success: true, message: AUTH_MESSAGES.emailVerified });

    const signIn = await post(t, '/api/auth/signin', { email, password: 'Victim-123' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ username: 'Vera Victim', email });
    expect((await post(t, '/api/auth/signin', { email, password: 'Attacker-1' })).statusCode).toBe(
      401,
    );
    // The attacker's own earlier link changes nothing now.
    const late = await post(t, '/api/auth/verify-email', { token: attackerToken });
    expect(late.json().message).not.toBe(AUTH_MESSAGES.emailVerified);
    expect((await post(t, '/api/auth/signin', { email, password: 'Attacker-1' })).statusCode).toBe(
      401,
    );
    expect((await get(t, '/api/auth/me', sessionCookieOf(signIn))).json()).toMatchObject({
      username: 'Vera Victim',
    });
  });

  it("the attacker's first link, used after the victim's sign-up, no longer verifies the attacker's account once the victim's link was used", async () => {
    const attacker = signUpBody({ password: 'Attacker-1' });
    await post(t, '/api/auth/signup', attacker);
    const victim = signUpBody({ email: attacker.email, password: 'Victim-123' });
    await post(t, '/api/auth/signup', victim);
    const [first, second] = await mailsTo(t, attacker.email);
    await post(t, '/api/auth/verify-email', { token: tokenFromLink(second!, 'verify-email') });
    await post(t, '/api/auth/verify-email', { token: tokenFromLink(first!, 'verify-email') });
    const login = (password: string) =>
      post(t, '/api/auth/signin', { email: attacker.email, password });
    expect((await login('Attacker-1')).statusCode).toBe(401);
    expect((await login('Victim-123')).statusCode).toBe(200);
  });

  it('sign-up on a verified account mails a notice with a reset link, not a verification link', async () => {
    const owner = signUpBody({ password: 'Owner-1234' });
    await post(t, '/api/auth/signup', owner);
    const [welcome] = await mailsTo(t, owner.email);
    await post(t, '/api/auth/verify-email', { token: tokenFromLink(welcome!, 'verify-email') });

    const again = await post(t, '/api/auth/signup', { ...owner, password: 'Other-1234' });
    expect(again.json()).toEqual({ success: true, message: AUTH_MESSAGES.signedUp });
    const notice = (await mailsTo(t, owner.email)).at(-1)!;
    expect(notice.subject).toBe('You already have a Campus Books account');
    expect(notice.text).not.toContain('/verify-email/');
    expect(notice.text).toContain('/forgot-password');
    expect(
      (await post(t, '/api/auth/signin', { email: owner.email, password: 'Owner-1234' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post(t, '/api/auth/signin', { email: owner.email, password: 'Other-1234' }))
        .statusCode,
    ).toBe(401);
  });

  it("verifying through the re-sign-up link ends the attacker's sessions", async () => {
    const attacker = signUpBody({ password: 'Attacker-1' });
    await post(t, '/api/auth/signup', attacker);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, attacker.email));
    const attackerCookie = await signInAs(t.app, row!.id);
    expect((await get(t, '/api/auth/me', attackerCookie)).statusCode).toBe(200);
    await post(
      t,
      '/api/auth/signup',
      signUpBody({ email: attacker.email, password: 'Victim-123' }),
    );
    const link = (await mailsTo(t, attacker.email)).at(-1)!;
    await post(t, '/api/auth/verify-email', { token: tokenFromLink(link, 'verify-email') });
    expect((await get(t, '/api/auth/me', attackerCookie)).statusCode).toBe(401);
  });

  it("a resend asked after the victim's sign-up still carries the victim's password", async () => {
    const attacker = signUpBody({ password: 'Attacker-1' });
    await post(t, '/api/auth/signup', attacker);
    await post(
      t,
      '/api/auth/signup',
      signUpBody({ email: attacker.email, password: 'Victim-123' }),
    );
    await post(t, '/api/auth/resend-verification', { email: attacker.email });
    const newest = (await mailsTo(t, attacker.email)).at(-1)!;
    await post(t, '/api/auth/verify-email', { token: tokenFromLink(newest, 'verify-email') });
    const login = (password: string) =>
      post(t, '/api/auth/signin', { email: attacker.email, password });
    expect((await login('Attacker-1')).statusCode).toBe(401);
    expect((await login('Victim-123')).statusCode).toBe(200);
  });

  it('25 parallel uses of one link verify once', async () => {
    const attacker = signUpBody({ password: 'Attacker-1' });
    await post(t, '/api/auth/signup', attacker);
    await post(
      t,
      '/api/auth/signup',
      signUpBody({ email: attacker.email, password: 'Victim-123' }),
    );
    const token = tokenFromLink((await mailsTo(t, attacker.email)).at(-1)!, 'verify-email');
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => post(t, '/api/auth/verify-email', { token })),
    );
    const verified = answers.filter((a) => a.json().message === AUTH_MESSAGES.emailVerified);
    expect(verified).toHaveLength(1);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 400)).toBe(true);
    expect(
      (await post(t, '/api/auth/signin', { email: attacker.email, password: 'Victim-123' }))
        .statusCode,
    ).toBe(200);
  });
});
