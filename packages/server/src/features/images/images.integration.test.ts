import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_VARIANTS, imageIdFromUrl } from '@campus-books/common/images';
import { NOT_YOUR_IMAGES } from './images.service';
import { pngImage } from '../../../test/support/test-images';
import { uploadImage } from '../../../test/support/tus-test-client';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { apiCaller } from '../../../test/api-caller';
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
    return (res.json() as { url: string }).url;
  }
  const filesOf = (url: string) => t.app.storage.list(`images/${imageIdFromUrl(url)}/`);
  const call = apiCaller(() => t);
  const createListing = (user: TestUser, imageUrls: string[]) =>
    call(user, 'POST', '/api/listing/create', listingBody({ imageUrls }));

  it("refuses another user's upload and foreign URLs in a listing", async () => {
    const strangersImage = await upload(await createUser(t));
    for (const urls of [[strangersImage], ['https://evil.example/cover.jpg']]) {
      const res = await createListing(seller, urls);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(NOT_YOUR_IMAGES);
    }
  });

  it('deletes the files of images removed on update, and of a deleted listing', async () => {
    const [a, b, c] = [await upload(), await upload(), await upload()];
    const created = await createListing(seller, [a, b]);
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { _id: string })._id;

    const updated = await call(
      seller,
      'POST',
      `/api/listing/update/${id}`,
      listingBody({ imageUrls: [b, c] }),
    );
    expect(updated.statusCode).toBe(200);
    expect(await filesOf(a)).toEqual([]);
    expect(await filesOf(b)).toHaveLength(IMAGE_VARIANTS.length);

    const deleted = await call(seller, 'DELETE', `/api/listing/delete/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(await filesOf(b)).toEqual([]);
    expect(await filesOf(c)).toEqual([]);
  });

  it("accepts only the user's own upload as avatar and deletes the replaced one", async () => {
    const strangersImage = await upload(await createUser(t));
    const refused = await call(seller, 'POST', `/api/user/update/${seller.id}`, {
      avatar: strangersImage,
    });
    expect(refused.statusCode).toBe(400);

    const first = await upload();
    const second = await upload();
    const ok = await call(seller, 'POST', `/api/user/update/${seller.id}`, { avatar: first });
    expect(ok.statusCode).toBe(200);
    const replaced = await call(seller, 'POST', `/api/user/update/${seller.id}`, {
      avatar: second,
    });
    expect(replaced.statusCode).toBe(200);
    expect(await filesOf(first)).toEqual([]);
    expect(await filesOf(second)).toHaveLength(IMAGE_VARIANTS.length);
  });

  it("deletes an account's listing images, avatar and unattached uploads", async () => {
    const owner = await createUser(t);
    const [listed, avatar, loose] = [await upload(owner), await upload(owner), await upload(owner)];
    expect((await createListing(owner, [listed])).statusCode).toBe(201);
    await call(owner, 'POST', `/api/user/update/${owner.id}`, { avatar });
    const res = await call(owner, 'DELETE', `/api/user/delete/${owner.id}`, {
      currentPassword: owner.password,
    });
    expect(res.statusCode).toBe(200);
    for (const url of [listed, avatar, loose]) expect(await filesOf(url)).toEqual([]);
  });
});
