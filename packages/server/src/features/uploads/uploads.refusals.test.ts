import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { MAX_UPLOADS_PER_HOUR } from '@campus-books/common/images';
import { MESSAGES } from '@campus-books/common/messages';
import { images } from '../../db/schema';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { IMAGE_TOO_MANY_PIXELS } from '../images/image-processing';
import {
  htmlFile,
  pngClaimingHugeSize,
  svgWithScript,
  textFile,
} from '../../../test/support/test-images';
import { createUpload, patchUpload, uploadImage } from '../../../test/support/tus-test-client';
import { TOO_MANY_UPLOADS } from './tus-server';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';

describe.each(STORE_KINDS)('uploads refused, %s store', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createUploadTestApp(kind);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const idOf = (location: string) => location.split('/').pop()!;

  /** Nothing of an upload is left: no tus state, no image files, no rows of its owner. */
  async function expectNothingStoredFor(owner: TestUser, location?: string) {
    if (location) {
      expect(await t.app.storage.list(`tus/${idOf(location)}/`)).toEqual([]);
      expect(await t.app.storage.list(`images/${idOf(location)}/`)).toEqual([]);
    }
    const rows = await t.database.db.select().from(images).where(eq(images.ownerId, owner.id));
    expect(rows).toEqual([]);
  }

  it('refuses anonymous (401) and unverified (403) uploaders', async () => {
    const anonymous = await createUpload(t.app, undefined, 100);
    expect(anonymous.statusCode).toBe(401);
    const unverified = await createUser(t, { verified: false });
    const refused = await createUpload(t.app, unverified.cookie, 100);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, statusCode: 403 });
    await expectNothingStoredFor(unverified);
  });

  it('refuses an upload started from another site (CSRF)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        cookie: user.cookie,
        origin: 'https://evil.example',
        'tus-resumable': '1.0.0',
        'upload-length': '100',
      },
    });
    expect(res.statusCode).toBe(403);
  });

  it.each([
    ['a text file named .jpg', textFile, 'notes.jpg', 415, MESSAGES.imageType],
    ['an SVG with a script', svgWithScript, 'cover.svg', 415, MESSAGES.imageType],
    ['an HTML page', htmlFile, 'page.png', 415, MESSAGES.imageType],
    ['a PNG claiming 30,000×30,000', pngClaimingHugeSize, 'bomb.png', 422, IMAGE_TOO_MANY_PIXELS],
  ])('refuses %s and stores nothing', async (_name, make, filename, status, message) => {
    const owner = await createUser(t);
    const res = await uploadImage(t.app, owner.cookie, await make(), filename);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, statusCode: status, message });
    await expectNothingStoredFor(owner, res.location);
  });

  it('refuses an image over 2 MB, declared or sent, with the spec message', async () => {
    const owner = await createUser(t);
    const declared = await createUpload(t.app, owner.cookie, MAX_IMAGE_BYTES + 1);
    expect(declared.statusCode).toBe(413);
    expect(declared.json().message).toBe(MESSAGES.imageTooLarge);

    const created = await createUpload(t.app, owner.cookie, 1000);
    const sent = await patchUpload(t.app, owner.cookie, created.location!, 0, Buffer.alloc(2000));
    expect(sent.statusCode).toBe(413);
    expect(sent.json().message).toBe(MESSAGES.imageTooLarge);
  });

  it('caps the uploads one user may start per hour', async () => {
    const owner = await createUser(t);
    for (let i = 0; i < MAX_UPLOADS_PER_HOUR; i += 1) {
      expect((await createUpload(t.app, owner.cookie, 1000)).statusCode).toBe(201);
    }
    const res = await createUpload(t.app, owner.cookie, 1000);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(TOO_MANY_UPLOADS);
  });
});
