import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageUrl } from '@campus-books/common/images';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { claimImages } from './images.service';
import { webpImage } from './test-images';
import { uploadImage } from './tus-test-client';
import { STORE_KINDS, createUploadTestApp } from './upload-test-app';

describe.each(STORE_KINDS)('serving and deleting images, %s store', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createUploadTestApp(kind);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  async function upload() {
    const res = await uploadImage(t.app, user.cookie, await webpImage());
    return res.json() as { _id: string; url: string };
  }

  it('serves every variant as WebP, cached forever, never sniffed', async () => {
    const { _id } = await upload();
    for (const variant of [...IMAGE_WIDTHS, 'full' as const]) {
      const res = await t.app.inject({ method: 'GET', url: imageUrl(_id, variant) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    }
  });

  it('answers 404 for a missing image and 400 for a malformed path', async () => {
    const missing = await t.app.inject({ method: 'GET', url: imageUrl(crypto.randomUUID()) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, statusCode: 404 });
    for (const url of [
      '/api/images/x/320.webp',
      `/api/images/${crypto.randomUUID()}/original.jpg`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
    }
  });

  it('lets the owner delete an unattached upload, and nobody else', async () => {
    const { _id } = await upload();
    const stranger = await createUser(t);
    const url = `/api/uploads/${_id}`;
    const refused = await t.app.inject({
      method: 'DELETE',
      url,
      headers: { cookie: stranger.cookie },
    });
    expect(refused.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'DELETE', url });
    expect(anonymous.statusCode).toBe(401);
    const res = await t.app.inject({ method: 'DELETE', url, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Image deleted' });
    expect((await t.app.inject({ method: 'GET', url: imageUrl(_id) })).statusCode).toBe(404);
  });

  it('refuses to delete an upload a listing or profile uses (409)', async () => {
    const { _id, url } = await upload();
    await claimImages(t.database.db, user.id, [url]);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${_id}`,
      headers: { cookie: user.cookie },
    });
    expect(res.statusCode).toBe(409);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});
