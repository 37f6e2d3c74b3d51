import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/features/accounts/auth.messages';
import { LINK_INVALID } from '../../src/features/listings/listing-links';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';

const longPath = `/api/listing/get/${'x'.repeat(16 * 1024 + 1)}`;

/** Answers produced before any route code runs still use the API's error shape, and are 4xx. */
describe(`errors from the router and the tus layer (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it.each([
    ['a malformed escape in a path parameter', '/api/listing/get/%', 400],
    ['an encoded lone surrogate', '/api/listing/get/%ED%A0%80', 400],
    ['a path parameter over 16 KiB (no request through Node gets here)', longPath, 400],
  ])('%s: %d in the error shape', async (_name, url, status) => {
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, statusCode: status, message: expect.any(String) });
  });

  // Path parameters up to what Node's HTTP server lets in reach their route (the docs' answers).
  it.each([
    ['GET', '/api/listing-link', LINK_INVALID],
    ['POST', '/api/listing-link', LINK_INVALID],
    ['POST', '/api/auth/reset-password', AUTH_MESSAGES.resetInvalid],
  ] as const)('%s %s/{300 characters}: 400 %j', async (method, prefix, message) => {
    const res = await t.app.inject({
      method,
      url: `${prefix}/${'a'.repeat(300)}`,
      ...(method === 'POST' && prefix.includes('reset')
        ? { payload: { password: 'Secret-123' } }
        : {}),
    });
    expect(res.json()).toEqual({ success: false, statusCode: 400, message });
  });

  it('refuses an upload of deferred length with a 400, not 501', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { cookie: user.cookie, 'tus-resumable': '1.0.0', 'upload-defer-length': '1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
  });
});
