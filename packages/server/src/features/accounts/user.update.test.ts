import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@campus-books/common/messages';
import { users } from '../../db/schema';
import { get, GENEROUS_LIMITS, post, sessionCookieOf } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { lastMailTo, mailsTo, tokenFromLink } from '../../../test/outbox';
import { AUTH_MESSAGES } from './auth.messages';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';

describe(`POST /api/user/update/:id (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  // A new e-mail or password needs the current password (test/security/reauthentication.test.ts).
  const update = (user: TestUser, payload: Record<string, unknown>) =>
    post(
      t,
      `/api/user/update/${user.id}`,
      'email' in payload || 'password' in payload
        ? { ...payload, currentPassword: user.password }
        : payload,
      user.cookie,
    );
  const rowOf = async (id: string) =>
    (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;

  it('changes only the fields sent and answers the updated CurrentUser', async () => {
    const user = await createUser(t);
    const before = await rowOf(user.id);
    const avatar = await createUploadedImage(t, user.id); // avatars are the user's own uploads
    const res = await update(user, { username: '  Book Seller ', avatar });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Profile updated.',
      _id: user.id,
      username: 'Book Seller',
      avatar,
      email: user.email,
      groupmelink: user.groupmelink,
      emailVerified: true,
      pendingEmail: null,
    });
    expect(res.body).not.toMatch(/argon2|passwordHash/);
    const after = await rowOf(user.id);
    expect(after).toMatchObject({
      groupmelink: before.groupmelink,
      email: before.email,
      passwordHash: before.passwordHash,
    });
    const cleared = await update(user, { avatar: '' });
    expect(cleared.json().avatar).toBeNull();
    const link = await update(user, { groupmelink: 'https://groupme.com/contact/new' });
    expect(link.json().groupmelink).toBe('https://groupme.com/contact/new');
  });

  it.each([
    [{ email: 'me@gmail.com' }, MESSAGES.schoolEmail],
    [{ password: 'short' }, MESSAGES.passwordLength],
    [{ password: 'x'.repeat(129) }, MESSAGES.passwordLength],
    [{ groupmelink: 'https://evil.example/x' }, MESSAGES.groupmeLink('https://groupme.com/')],
    [{ groupmelink: 'javascript:alert(1)' }, MESSAGES.groupmeLink('https://groupme.com/')],
    [{ username: '' }, 'username: Username is required'],
  ])('refuses %j with the spec message and changes nothing', async (payload, message) => {
    const user = await createUser(t);
    const before = await rowOf(user.id);
    const res = await update(user, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400, message });
    expect(await rowOf(user.id)).toEqual(before);
  });

  it.each([
    { _id: '6f1c2f4e-8d2a-4b7e-9c1d-2a3b4c5d6e7f' },
    { emailVerified: false },
    { passwordHash: '$argon2id$v=19$m=1,t=1,p=1$x$y' },
    { createdAt: '2000-01-01T00:00:00.000Z' },
    { username: 'ok', id: '6f1c2f4e-8d2a-4b7e-9c1d-2a3b4c5d6e7f' },
  ])('refuses mass assignment %j and changes nothing', async (payload) => {
    const user = await createUser(t);
    const before = await rowOf(user.id);
    const res = await update(user, payload);
    expect(res.statusCode).toBe(400);
    expect(await rowOf(user.id)).toEqual(before);
  });

  it('a password change hashes it and ends the other sessions, not this one', async () => {
    const user = await createUser(t);
    const signIn = await post(t, '/api/auth/signin', {
      email: user.email,
      password: user.password,
    });
    const otherDevice = sessionCookieOf(signIn);
    // A password manager's password: longer than the old app's 12 characters.
    const changed = `Changed-${'pw1'.repeat(40)}`;
    const res = await update(user, { password: changed });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain('other sessions were signed out');
    expect((await rowOf(user.id)).passwordHash).toMatch(/^\$argon2id\$/);
    expect((await get(t, '/api/auth/me', otherDevice)).statusCode).toBe(401);
    expect((await get(t, '/api/auth/me', user.cookie)).statusCode).toBe(200);
    const again = await post(t, '/api/auth/signin', { email: user.email, password: changed });
    expect(again.statusCode).toBe(200);
  });

  it('an e-mail change waits for the link mailed to the new address', async () => {
    const user = await createUser(t);
    const res = await update(user, { email: 'New.Address@Richmond.edu' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: user.email,
      pendingEmail: 'new.address@richmond.edu',
    });
    expect(res.json().message).toMatch(/check that inbox/);
    expect(await mailsTo(t, user.email)).toEqual([]);
    const mail = await lastMailTo(t, 'new.address@richmond.edu');
    expect(mail.subject).toBe('Confirm your new e-mail address');

    const verify = await post(t, '/api/auth/verify-email', {
      token: tokenFromLink(mail, 'verify-email'),
    });
    expect(verify.json()).toEqual({ success: true, message: AUTH_MESSAGES.emailChanged });
    const me = await get(t, '/api/auth/me', user.cookie);
    expect(me.json()).toMatchObject({
      email: 'new.address@richmond.edu',
      pendingEmail: null,
      emailVerified: true,
    });
    const signIn = await post(t, '/api/auth/signin', {
      email: 'new.address@richmond.edu',
      password: user.password,
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('answers an address of another account like a free one: no 409, its owner gets a notice', async () => {
    const [user, other] = [await createUser(t), await createUser(t)];
    const res = await update(user, { email: other.email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, pendingEmail: other.email });
    const notice = await lastMailTo(t, other.email);
    expect(notice.subject).toBe('Someone tried to use your e-mail address on Campus Books');
    expect(notice.text).not.toContain('/verify-email/');
  });

  it('refuses the link with 409 when the address was taken meanwhile, and keeps the old address', async () => {
    const user = await createUser(t);
    await update(user, { email: 'contested@richmond.edu' });
    const token = tokenFromLink(await lastMailTo(t, 'contested@richmond.edu'), 'verify-email');
    await createUser(t, { email: 'contested@richmond.edu' });
    const res = await post(t, '/api/auth/verify-email', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(AUTH_MESSAGES.emailTaken);
    expect(await rowOf(user.id)).toMatchObject({
      email: user.email,
      pendingEmail: 'contested@richmond.edu',
    });
  });

  it('a link for an address the user has since replaced no longer works', async () => {
    const user = await createUser(t);
    await update(user, { email: 'first.choice@richmond.edu' });
    const stale = tokenFromLink(await lastMailTo(t, 'first.choice@richmond.edu'), 'verify-email');
    await update(user, { email: 'second.choice@richmond.edu' });
    const res = await post(t, '/api/auth/verify-email', { token: stale });
    expect(res.json()).toMatchObject({ statusCode: 400, message: AUTH_MESSAGES.verifyInvalid });
    expect((await rowOf(user.id)).email).toBe(user.email);
  });

  it('sending the current address cancels a pending change', async () => {
    const user = await createUser(t);
    await update(user, { email: 'maybe@richmond.edu' });
    const res = await update(user, { email: user.email });
    expect(res.json()).toMatchObject({ email: user.email, pendingEmail: null });
  });
});
