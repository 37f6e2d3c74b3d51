import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, post, signUpBody } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { fingerprint } from './security-helpers';

const HOSTILE_LINKS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '\tjavascript:alert(1)',
  ' \njavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://groupme.com.evil.example/contact/1',
  'https://groupme.com@evil.example/contact/1',
  'https://user:pass@groupme.com/contact/1',
  '//evil.example/contact/1',
  'http://groupme.com/contact/1',
  'https://evil.example/https://groupme.com/',
];

describe(`GroupMe links that are not GroupMe are refused (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it.each(HOSTILE_LINKS)('%j: 400 on sign-up and on the profile, nothing stored', async (link) => {
    const before = await fingerprint(t.database);
    const signUp = await post(t, '/api/auth/signup', signUpBody({ groupmelink: link }));
    expect(signUp.statusCode).toBe(400);
    const update = await post(t, `/api/user/update/${user.id}`, { groupmelink: link }, user.cookie);
    expect(update.statusCode).toBe(400);
    expect(update.json().message).toMatch(/GroupMe/);
    expect(await fingerprint(t.database)).toBe(before);
  });
});
