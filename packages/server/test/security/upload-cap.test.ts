import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOADS_PER_HOUR } from '@campus-books/common/images';
import { textFile } from '../support/test-images';
import { createUpload, deleteUpload, uploadImage } from '../support/tus-test-client';
import { TOO_MANY_UPLOADS } from '../../src/features/uploads/tus-server';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { printFigure } from './security-helpers';

/**
 * The hourly upload cap counts every upload started, not the rows that still exist: uploads
 * cancelled, deleted or refused still count, and uploads started at once cannot slip past it.
 */
describe(`the hourly upload cap (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let requests = 0;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    printFigure(`upload cap (${TEST_ENGINE})`, { requests });
    await t.close();
  });

  async function expectCapped(user: TestUser) {
    const res = await createUpload(t.app, user.cookie, 1000);
    requests += 1;
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ success: false, statusCode: 429, message: TOO_MANY_UPLOADS });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }

  it('counts uploads created then cancelled', async () => {
    const user = await createUser(t);
    for (let i = 0; i < MAX_UPLOADS_PER_HOUR; i += 1) {
      const created = await createUpload(t.app, user.cookie, 1000);
      expect(created.statusCode).toBe(201);
      expect((await deleteUpload(t.app, user.cookie, created.location!)).statusCode).toBe(204);
      requests += 2;
    }
    await expectCapped(user);
    // The cap is per user: someone else still uploads.
    const other = await createUser(t);
    expect((await createUpload(t.app, other.cookie, 1000)).statusCode).toBe(201);
  });

  it('counts uploads refused for their bytes', async () => {
    const user = await createUser(t);
    const bytes = textFile();
    for (let i = 0; i < MAX_UPLOADS_PER_HOUR; i += 1) {
      const res = await uploadImage(t.app, user.cookie, bytes, 'notes.jpg');
      expect(res.statusCode).toBe(415);
      requests += 2;
    }
    await expectCapped(user);
  });

  it('lets exactly the cap through when 40 uploads start at once', async () => {
    const user = await createUser(t);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => createUpload(t.app, user.cookie, 1000)),
    );
    requests += answers.length;
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(MAX_UPLOADS_PER_HOUR);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - MAX_UPLOADS_PER_HOUR);
  });
});
