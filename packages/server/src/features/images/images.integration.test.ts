import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import { IMAGE_VARIANTS, imageIdFromUrl } from '@campus-books/common/images';
import { NOT_YOUR_IMAGES } from './images.service';
import { pngImage } from '../../../test/support/test-images';
import { uploadedImage, uploadImage } from '../../../test/support/tus-test-client';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { listingBody } from '../../../test/listing-fixtures';

/** The image rules as the listing and profile APIs apply them. */
describe.each(STORE_KINDS)('listings and profiles use only own uploads, %s store', (kind) => {
  let t: TestApp;
  let seller: TestUser;
  let png: Buffer;

  beforeAll(async () => {
    t = await createUploadTestApp(kind);
    seller = await createUser(t);
    png = await pngImage();
  });
  afterAll(() => t.close());

  async function upload(owner: TestUser = seller): Promise<string> {
    const res = await uploadImage(t.app, owner.cookie, png);
    expect(res.statusCode).toBe(200);
    return uploadedImage(res).url;
  }
  const filesOf = (url: string) => t.app.storage.list(`images/${imageIdFromUrl(url)}/`);
  const route = routeCaller(() => t);
  const createListing = (user: TestUser, imageUrls: string[]) =>
    route('POST /api/listing/create', { as: user, body: listingBody({ imageUrls }) });
  const setAvatar = (user: TestUser, avatar: string) =>
    route('POST /api/user/update/:id', { as: user, params: { id: user.id }, body: { avatar } });

  it("refuses another user's upload and foreign URLs in a listing", async () => {
    const strangersImage = await upload(await createUser(t));
    for (const urls of [[strangersImage], ['https://evil.example/cover.jpg']]) {
      const res = await createListing(seller, urls);
      expect(res.status).toBe(400);
      expect(errorOf(res).message).toBe(NOT_YOUR_IMAGES);
    }
  });

  it('deletes the files of images removed on update, and of a deleted listing', async () => {
    const [a, b, c] = [await upload(), await upload(), await upload()];
    const created = await createListing(seller, [a, b]);
    expect(created.status).toBe(201);
    const id = dataOf(created)._id;

    const updated = await route('POST /api/listing/update/:id', {
      as: seller,
      params: { id },
      body: listingBody({ imageUrls: [b, c] }),
    });
    expect(updated.status).toBe(200);
    expect(await filesOf(a)).toEqual([]);
    expect(await filesOf(b)).toHaveLength(IMAGE_VARIANTS.length);

    const deleted = await route('DELETE /api/listing/delete/:id', { as: seller, params: { id } });
    expect(deleted.status).toBe(200);
    expect(await filesOf(b)).toEqual([]);
    expect(await filesOf(c)).toEqual([]);
  });

  it("accepts only the user's own upload as avatar and deletes the replaced one", async () => {
    const strangersImage = await upload(await createUser(t));
    expect((await setAvatar(seller, strangersImage)).status).toBe(400);

    const first = await upload();
    const second = await upload();
    expect((await setAvatar(seller, first)).status).toBe(200);
    expect((await setAvatar(seller, second)).status).toBe(200);
    expect(await filesOf(first)).toEqual([]);
    expect(await filesOf(second)).toHaveLength(IMAGE_VARIANTS.length);
  });

  it("deletes an account's listing images, avatar and unattached uploads", async () => {
    const owner = await createUser(t);
    const [listed, avatar, loose] = [await upload(owner), await upload(owner), await upload(owner)];
    expect((await createListing(owner, [listed])).status).toBe(201);
    await setAvatar(owner, avatar);
    const res = await route('DELETE /api/user/delete/:id', {
      as: owner,
      params: { id: owner.id },
      body: { currentPassword: owner.password },
    });
    expect(res.status).toBe(200);
    for (const url of [listed, avatar, loose]) expect(await filesOf(url)).toEqual([]);
  });
});
