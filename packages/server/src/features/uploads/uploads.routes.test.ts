import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUrl } from '@campus-books/common/images';
import { images } from '../../db/schema';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import {
  CAMERA_MARKER,
  GPS_MARKER,
  gifImage,
  phoneJpeg,
  transparentPngImage,
  webpImage,
} from '../../../test/support/test-images';
import {
  createUpload,
  deleteUpload,
  headUpload,
  patchUpload,
  uploadImage,
} from '../../../test/support/tus-test-client';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';

describe.each(STORE_KINDS)('uploads over tus, %s store', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let phone: Buffer;

  beforeAll(async () => {
    t = await createUploadTestApp(kind);
    user = await createUser(t);
    phone = await phoneJpeg();
  });
  afterAll(() => t.close());

  const rowsOf = (id: string) => t.database.db.select().from(images).where(eq(images.id, id));
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

  it('processes a phone JPEG: oriented, WebP at each width, no EXIF or GPS left', async () => {
    expect(phone.includes(GPS_MARKER)).toBe(true);
    const res = await uploadImage(t.app, user.cookie, phone, '../../etc/passwd.jpg');
    expect(res.statusCode).toBe(200);
    const id = idOf(res.location!);
    expect(res.json()).toEqual({
      success: true,
      _id: id,
      url: imageUrl(id),
      width: 1920,
      height: 2560,
    });
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ ownerId: user.id, status: 'ready', width: 1920, height: 2560 });
    expect(row!.bytes).toBe(phone.length);

    const stored = await t.app.storage.list(`images/${id}/`);
    expect(stored.map((o) => o.key.split('/').pop()).sort()).toEqual(
      ['1280.webp', '320.webp', '480.webp', '640.webp', '960.webp', 'full.webp'].sort(),
    );
    const expectedWidths = {
      '320': 320,
      '480': 480,
      '640': 640,
      '960': 960,
      '1280': 1280,
      full: 1920,
    };
    for (const [name, width] of Object.entries(expectedWidths)) {
      const bytes = (await t.app.storage.get(`images/${id}/${name}.webp`))!;
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
      expect(meta.height).toBeGreaterThan(meta.width!); // portrait: the orientation was applied
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(bytes.includes(GPS_MARKER)).toBe(false);
      expect(bytes.includes(CAMERA_MARKER)).toBe(false);
      expect(bytes.includes('Exif')).toBe(false);
    }
    // Stored sideways with red on the left; displayed upright, red is on top.
    const full = (await t.app.storage.get(`images/${id}/full.webp`))!;
    const meanColour = async (top: number) => {
      const region = { left: 760, top, width: 400, height: 400 };
      // stats() reads its input as it is, so extract into a new image first.
      const { channels } = await sharp(await sharp(full).extract(region).png().toBuffer()).stats();
      return { red: channels[0]!.mean, blue: channels[2]!.mean };
    };
    const top = await meanColour(100);
    const bottom = await meanColour(2060);
    expect(top.red).toBeGreaterThan(top.blue + 50);
    expect(bottom.blue).toBeGreaterThan(bottom.red + 50);
    expect(await t.app.storage.list(`tus/${id}/`)).toEqual([]);
    // The user's file name never reaches a storage key.
    expect((await t.app.storage.list('')).some((o) => o.key.includes('passwd'))).toBe(false);
  });

  it.each([
    ['PNG', transparentPngImage, 800],
    ['WebP', webpImage, 500],
    ['GIF', gifImage, 300],
  ])('accepts a %s', async (_name, make, width) => {
    const res = await uploadImage(t.app, user.cookie, await make());
    expect(res.statusCode).toBe(200);
    const id = idOf(res.location!);
    const full = (await t.app.storage.get(`images/${id}/full.webp`))!;
    expect((await sharp(full).metadata()).width).toBe(width);
    // Never enlarged: the 1280 variant of a small image keeps its own width.
    const big = (await t.app.storage.get(`images/${id}/1280.webp`))!;
    expect((await sharp(big).metadata()).width).toBe(width);
  });

  it('resumes an upload from the offset the server reports, with identical bytes', async () => {
    const created = await createUpload(t.app, user.cookie, phone.length);
    const location = created.location!;
    const firstPart = phone.subarray(0, 100_000);
    expect((await patchUpload(t.app, user.cookie, location, 0, firstPart)).statusCode).toBe(204);
    const head = await headUpload(t.app, user.cookie, location);
    expect(head.offset).toBe(100_000);
    // A PATCH at a stale offset is refused without changing anything.
    expect((await patchUpload(t.app, user.cookie, location, 0, firstPart)).statusCode).toBe(409);
    const rest = await patchUpload(t.app, user.cookie, location, 100_000, phone.subarray(100_000));
    expect(rest.statusCode).toBe(200);
    const id = idOf(location);
    const whole = await uploadImage(t.app, user.cookie, phone);
    const other = idOf(whole.location!);
    for (const name of ['320', 'full']) {
      const a = await t.app.storage.get(`images/${id}/${name}.webp`);
      const b = await t.app.storage.get(`images/${other}/${name}.webp`);
      expect(a!.equals(b!)).toBe(true);
    }
    const [row] = await rowsOf(id);
    expect(row!.bytes).toBe(phone.length);
  });

  it('cancels an upload (tus DELETE) leaving nothing behind', async () => {
    const owner = await createUser(t);
    const created = await createUpload(t.app, owner.cookie, phone.length);
    await patchUpload(t.app, owner.cookie, created.location!, 0, phone.subarray(0, 1000));
    const cancelled = await deleteUpload(t.app, owner.cookie, created.location!);
    expect(cancelled.statusCode).toBe(204);
    expect((await headUpload(t.app, owner.cookie, created.location!)).statusCode).toBe(404);
    await expectNothingStoredFor(owner, created.location);
  });

  it("hides another user's upload (404 on HEAD, PATCH and DELETE)", async () => {
    const created = await createUpload(t.app, user.cookie, 1000);
    const stranger = await createUser(t);
    const loc = created.location!;
    expect((await headUpload(t.app, stranger.cookie, loc)).statusCode).toBe(404);
    expect((await patchUpload(t.app, stranger.cookie, loc, 0, Buffer.alloc(10))).statusCode).toBe(
      404,
    );
    expect((await deleteUpload(t.app, stranger.cookie, loc)).statusCode).toBe(404);
    expect((await headUpload(t.app, user.cookie, loc)).statusCode).toBe(200);
  });
});
