import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';

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
    ['a path parameter over 200 characters', `/api/listing/get/${'x'.repeat(300)}`, 414],
  ])('%s: %d in the error shape', async (_name, url, status) => {
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, statusCode: status, message: expect.any(String) });
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
