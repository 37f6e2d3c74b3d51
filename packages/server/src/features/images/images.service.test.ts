import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_VARIANTS, imageUrl, imageVariantUrl } from '@campus-books/common/images';
import { images, listings, users } from '../../db/schema';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import {
  NOT_YOUR_IMAGES,
  UNATTACHED_IMAGE_TTL_MS,
  claimImages,
  deleteImages,
  releaseImages,
  sweepImages,
} from './images.service';
import { imageIdsOfUser } from './images.repository';
import { pngImage } from '../../../test/support/test-images';
import { uploadedImage, uploadImage } from '../../../test/support/tus-test-client';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';

describe.each(STORE_KINDS)('image lifecycle, %s store', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let png: Buffer;

  beforeAll(async () => {
    t = await createUploadTestApp(kind);
    user = await createUser(t);
    png = await pngImage();
  });
  afterAll(() => t.close());

  async function upload(owner: TestUser = user) {
    const res = await uploadImage(t.app, owner.cookie, png);
    expect(res.statusCode).toBe(200);
    return uploadedImage(res);
  }
  const rowOf = async (id: string) =>
    (await t.database.db.select().from(images).where(eq(images.id, id)))[0];
  const filesOf = (id: string) => t.app.storage.list(`images/${id}/`);
  async function listingWith(owner: TestUser, imageUrls: string[]) {
    const [row] = await t.database.db
      .insert(listings)
      .values({
        userId: owner.id,
        name: 'Calculus',
        courseNumber: '101',
        condition: 'good',
        regularPrice: 20,
        imageUrls,
      })
      .returning();
    return row!;
  }

  it("claims the caller's own processed uploads and marks them attached", async () => {
    const a = await upload();
    const b = await upload();
    await claimImages(t.database.db, user.id, [a.url, imageVariantUrl(b.url, 320)]);
    expect((await rowOf(a._id))?.status).toBe('attached');
    expect((await rowOf(b._id))?.attachedAt).toBeInstanceOf(Date);
    // Claiming again (an edited listing keeping its images) is fine.
    await claimImages(t.database.db, user.id, [a.url]);
  });

  it("refuses another user's upload, unknown ids, uploads in progress and foreign URLs", async () => {
    const mine = await upload();
    const stranger = await createUser(t);
    const claim = (urls: string[]) => claimImages(t.database.db, stranger.id, urls);
    await expect(claim([mine.url])).rejects.toMatchObject({
      statusCode: 400,
      message: NOT_YOUR_IMAGES,
    });
    await expect(claim([imageUrl(crypto.randomUUID())])).rejects.toMatchObject({ statusCode: 400 });
    await expect(claim(['https://evil.example/x.jpg'])).rejects.toMatchObject({ statusCode: 400 });
    await expect(claim(['/api/images/../../etc/passwd'])).rejects.toMatchObject({
      statusCode: 400,
    });
    const inProgress = crypto.randomUUID();
    await t.database.db.insert(images).values({ id: inProgress, ownerId: stranger.id });
    await expect(claim([imageUrl(inProgress)])).rejects.toMatchObject({ statusCode: 400 });
    expect((await rowOf(mine._id))?.status).toBe('ready');
    // URLs the listing already holds pass as they are (e.g. older external images).
    await claimImages(
      t.database.db,
      stranger.id,
      ['https://old.example/a.jpg'],
      ['https://old.example/a.jpg'],
    );
  });

  it('deletes uploads never attached after a day, and only those', async () => {
    const unattached = await upload();
    const attached = await upload();
    await claimImages(t.database.db, user.id, [attached.url]);
    await listingWith(user, [attached.url]);

    expect(await sweepImages(t.app.images, new Date(Date.now() + 60 * 60 * 1000))).toBe(0);
    expect(await filesOf(unattached._id)).toHaveLength(IMAGE_VARIANTS.length);

    const dayLater = new Date(Date.now() + UNATTACHED_IMAGE_TTL_MS + 60_000);
    expect(await sweepImages(t.app.images, dayLater)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(unattached._id)).toBeUndefined();
    expect(await filesOf(unattached._id)).toEqual([]);
    expect((await rowOf(attached._id))?.status).toBe('attached');
    expect(await filesOf(attached._id)).toHaveLength(IMAGE_VARIANTS.length);
  });

  it('releases images a deleted listing used, keeping those still used elsewhere', async () => {
    const onlyHere = await upload();
    const shared = await upload();
    await claimImages(t.database.db, user.id, [onlyHere.url, shared.url]);
    const listing = await listingWith(user, [onlyHere.url, shared.url]);
    await listingWith(user, [imageVariantUrl(shared.url, 640)]);

    await t.database.db.delete(listings).where(eq(listings.id, listing.id));
    expect(await releaseImages(t.app.images, listing.imageUrls)).toBe(1);
    expect(await rowOf(onlyHere._id)).toBeUndefined();
    expect(await filesOf(onlyHere._id)).toEqual([]);
    expect(await filesOf(shared._id)).toHaveLength(IMAGE_VARIANTS.length);
  });

  it('keeps an image used as an avatar', async () => {
    const avatar = await upload();
    await claimImages(t.database.db, user.id, [avatar.url]);
    await t.database.db.update(users).set({ avatar: avatar.url }).where(eq(users.id, user.id));
    expect(await releaseImages(t.app.images, [avatar.url])).toBe(0);
    expect(await filesOf(avatar._id)).toHaveLength(IMAGE_VARIANTS.length);
  });

  it("deletes an account's images; rows left by a deleted owner are swept", async () => {
    const owner = await createUser(t);
    const a = await upload(owner);
    const b = await upload(owner);
    const ids = await imageIdsOfUser(t.database.db, owner.id);
    expect(ids.sort()).toEqual([a._id, b._id].sort());
    await t.database.db.delete(users).where(eq(users.id, owner.id));
    expect((await rowOf(a._id))?.ownerId).toBeNull(); // ON DELETE SET NULL keeps the record
    expect(await deleteImages(t.app.images, [a._id])).toBe(1);
    expect(await sweepImages(t.app.images)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(b._id)).toBeUndefined();
    expect(await filesOf(b._id)).toEqual([]);
  });

  it('leaves a row marked deleting when a file deletion fails, and the sweep finishes it', async () => {
    const img = await upload();
    const storage = t.app.storage;
    const realDelete = storage.delete.bind(storage);
    storage.delete = async () => {
      throw new Error('storage unavailable');
    };
    try {
      expect(await deleteImages(t.app.images, [img._id])).toBe(0);
    } finally {
      storage.delete = realDelete;
    }
    expect((await rowOf(img._id))?.status).toBe('deleting');
    await expect(claimImages(t.database.db, user.id, [img.url])).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(await sweepImages(t.app.images)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(img._id)).toBeUndefined();
    expect(await filesOf(img._id)).toEqual([]);
  });
});
