import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageUrl } from '@campus-books/common/images';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { claimImages } from './images.service';
import { webpImage } from '../../../test/support/test-images';
import { uploadedImage, uploadImage } from '../../../test/support/tus-test-client';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';

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
    return uploadedImage(res);
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

  it('answers an image stored before a width existed with the next larger variant it has', async () => {
    const { _id } = await upload();
    const folder = `images/${_id}/`;
    // As stored before the 480 and 960 variants were added.
    await t.app.storage.delete(`${folder}480.webp`);
    await t.app.storage.delete(`${folder}960.webp`);
    const get = (variant: 320 | 480 | 640 | 960 | 1280 | 'full') =>
      t.app.inject({ method: 'GET', url: imageUrl(_id, variant) });

    for (const [asked, standIn] of [
      [480, 640],
      [960, 1280],
    ] as const) {
      const res = await get(asked);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.rawPayload.equals((await t.app.storage.get(`${folder}${standIn}.webp`))!)).toBe(
        true,
      );
      // Not cached forever: a later backfill of the real file takes over.
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
    }
    const exact = await get(640);
    expect(exact.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    // With only the full size left, every width is answered with it.
    for (const variant of IMAGE_WIDTHS) await t.app.storage.delete(`${folder}${variant}.webp`);
    const full = (await t.app.storage.get(`${folder}full.webp`))!;
    for (const variant of IMAGE_WIDTHS) {
      const res = await get(variant);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(full)).toBe(true);
    }
  });

  it('answers 404 for a missing image and 400 for a malformed path', async () => {
    for (const variant of [320, 1280] as const) {
      const missing = await t.app.inject({
        method: 'GET',
        url: imageUrl(crypto.randomUUID(), variant),
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, statusCode: 404 });
    }
    for (const url of [
      '/api/images/x/320.webp',
      `/api/images/${crypto.randomUUID()}/original.jpg`,
      `/api/images/${crypto.randomUUID()}/500.webp`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers 404, not 500, for a stored image named in upper case', async () => {
    const { _id } = await upload();
    expect((await t.app.inject(imageUrl(_id, 640))).statusCode).toBe(200);
    // All upper case, and only its first letter (an id may start with eight digits).
    const firstLetter = _id.search(/[a-f]/);
    const oneUpper =
      _id.slice(0, firstLetter) + _id[firstLetter]!.toUpperCase() + _id.slice(firstLetter + 1);
    for (const id of [_id.toUpperCase(), oneUpper]) {
      const res = await t.app.inject(`/api/images/${id}/640.webp`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, statusCode: 404, message: 'Image not found' });
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
