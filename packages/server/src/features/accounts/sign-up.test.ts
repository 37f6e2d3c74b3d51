import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolEmailMessage } from '@campus-books/common/account.schemas';
import { activeCampus } from '@campus-books/common/active-campus';
import { MESSAGES } from '@campus-books/common/messages';
import { emailTokens, users } from '../../db/schema';
import { GENEROUS_LIMITS, post, signUpBody } from '../../../test/accounts';
import { campusValues } from '../../../test/campus-values';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { lastMailTo, mailsTo, tokenFromLink } from '../../../test/outbox';
import { AUTH_MESSAGES } from './auth.messages';

describe(`POST /api/auth/signup (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...GENEROUS_LIMITS, PUBLIC_URL: 'https://books.example.edu' });
  });
  afterAll(() => t.close());

  const findUser = async (email: string) =>
    (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

  it('creates an unverified account and mails a single-use verification link', async () => {
    const email = campusValues.email('grace.hopper');
    const body = signUpBody({ email: email.toUpperCase(), lastName: ' Hopper ' });
    const res = await post(t, '/api/auth/signup', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: AUTH_MESSAGES.signedUp });

    const user = await findUser(email);
    expect(user).toMatchObject({ username: 'Ada Hopper', emailVerifiedAt: null });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);

    const mail = await lastMailTo(t, email);
    expect(mail.subject).toBe('Verify your school e-mail');
    expect(mail.text).toMatch(/https:\/\/books\.example\.edu\/verify-email\/[A-Za-z0-9_-]{43}\b/);
    const token = tokenFromLink(mail, 'verify-email');
    const [stored] = await t.database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.userId, user!.id));
    expect(stored!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(stored!.purpose).toBe('verify_email');
    const lifetimeHours = (stored!.expiresAt.getTime() - stored!.createdAt.getTime()) / 3_600_000;
    expect(lifetimeHours).toBeCloseTo(24, 1);
  });

  it('takes a sign-up without a GroupMe link (GROUPME_REQUIRED is off): buyers see none', async () => {
    for (const body of [signUpBody({ groupmelink: '' }), signUpBody({ groupmelink: undefined })]) {
      expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
      expect((await findUser(body.email))!.groupmelink).toBe('');
    }
  });

  it('keeps a username that is sent', async () => {
    const body = signUpBody({ username: 'Bookworm' });
    await post(t, '/api/auth/signup', body);
    expect((await findUser(body.email))!.username).toBe('Bookworm');
  });

  it('ignores fields a client may not set (mass assignment)', async () => {
    const body = signUpBody({
      _id: '00000000-0000-4000-8000-000000000000',
      emailVerified: true,
      emailVerifiedAt: new Date().toISOString(),
      passwordHash: 'x',
      createdAt: '2000-01-01T00:00:00.000Z',
    });
    expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
    const user = await findUser(body.email);
    expect(user!.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(user!.emailVerifiedAt).toBeNull();
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user!.createdAt.getFullYear()).toBeGreaterThan(2000);
  });

  it("takes a password manager's 128 characters, and signs in with them once verified", async () => {
    const password = `${'Long-passphrase '.repeat(7)}é${'x'.repeat(15)}`;
    expect(password).toHaveLength(128);
    const body = signUpBody({ email: campusValues.email('manager'), password });
    expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
    const token = tokenFromLink(await lastMailTo(t, body.email), 'verify-email');
    expect((await post(t, '/api/auth/verify-email', { token })).statusCode).toBe(200);
    const signIn = await post(t, '/api/auth/signin', { email: body.email, password });
    expect(signIn.statusCode).toBe(200);
    const wrong = await post(t, '/api/auth/signin', {
      email: body.email,
      password: `${password}!`,
    });
    expect(wrong.statusCode).toBe(401);
  });

  // A campus with a school domain names it in the refusal; one without says "a school address".
  const badEmail = (): string => schoolEmailMessage(activeCampus().config.emailDomain);
  it.each([
    ['firstName', { firstName: '' }, (): string => MESSAGES.firstNameRequired],
    ['lastName', { lastName: '   ' }, (): string => MESSAGES.lastNameRequired],
    ['email', { email: 'ada@gmail.com' }, badEmail],
    ['email', { email: 'not an address' }, badEmail],
    ['password', { password: 'short' }, (): string => MESSAGES.passwordLength],
    ['password', { password: 'x'.repeat(129) }, (): string => MESSAGES.passwordLength],
    [
      'groupmelink',
      { groupmelink: 'javascript:alert(1)' },
      (): string => MESSAGES.groupmeLink(activeCampus().config.groupme.linkPrefix),
    ],
  ])('refuses a bad %s with the spec message (%j)', async (field, override, messageOf) => {
    const message = messageOf();
    const res = await post(t, '/api/auth/signup', signUpBody(override));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400, message });
    expect(res.json().errors).toContainEqual({ field, message });
  });

  it('answers an already registered address exactly like a new one, and mails a notice instead', async () => {
    const existing = await createUser(t, { password: 'Original-1' });
    const fresh = await post(t, '/api/auth/signup', signUpBody());
    const again = await post(
      t,
      '/api/auth/signup',
      signUpBody({ email: existing.email.toUpperCase() }),
    );
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(again.json()).toEqual(fresh.json());

    const rows = await t.database.db.select().from(users).where(eq(users.email, existing.email));
    expect(rows).toHaveLength(1);
    const signIn = await post(t, '/api/auth/signin', {
      email: existing.email,
      password: 'Original-1',
    });
    expect(signIn.statusCode).toBe(200); // the password was not replaced
    const notice = await lastMailTo(t, existing.email);
    expect(notice.subject).toBe(`You already have a ${activeCampus().productName} account`);
    expect(notice.text).toContain('sign in');
    expect(notice.text).toContain('reset your password');
    expect(notice.text).not.toContain('/verify-email/');
  });

  it('mails a fresh verification link (for this sign-up) when the existing account is unverified', async () => {
    const body = signUpBody();
    await post(t, '/api/auth/signup', body);
    await post(t, '/api/auth/signup', body);
    const mails = await mailsTo(t, body.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Verify your school e-mail',
      'Verify your school e-mail',
    ]);
    const res = await post(t, '/api/auth/verify-email', {
      token: tokenFromLink(mails[1]!, 'verify-email'),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe(`sign-up with SCHOOL_EMAIL_DOMAIN set (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SCHOOL_EMAIL_DOMAIN: campusValues.emailDomain() });
  });
  afterAll(() => t.close());

  it('admits only that campus', async () => {
    const domain = campusValues.emailDomain();
    const other = await post(t, '/api/auth/signup', signUpBody({ email: 'ada@other.example' }));
    // The refusal names the campus's domain (the sign-up form's label does too).
    expect(other.json()).toMatchObject({
      statusCode: 400,
      message: `Use your @${domain} address`,
    });
    expect(other.json().errors).toContainEqual({
      field: 'email',
      message: `Use your @${domain} address`,
    });
    const own = await post(t, '/api/auth/signup', signUpBody({ email: `ada@dept.${domain}` }));
    expect(own.statusCode).toBe(201);
  });
});
