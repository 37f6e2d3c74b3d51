import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMAGE_VARIANTS } from '@campus-books/common/images';
import { images } from '../../src/db/schema';
import { sweepImages } from '../../src/features/images/images.service';
import { pngImage, textFile } from '../support/test-images';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createUploadTestApp } from '../support/upload-test-app';
import { printFigure } from './security-helpers';

/**
 * Duplicated and racing tus requests over a real socket, as an attacker sends them: the upload is
 * finished (processed) exactly once, every other request gets a 4xx, and storage never holds a
 * file without its row.
 */
describe(`racing upload requests (${TEST_ENGINE})`, () => {
  const RACERS = 25;
  let t: TestApp;
  let user: TestUser;
  let base: string;
  const figures = { requests: 0, answers2xx: 0, answers4xx: 0, answers5xx: 0 };
  /** Storage puts of processed variants, per image id (what the image pipeline writes). */
  const variantPuts = new Map<string, number>();

  beforeAll(async () => {
    t = await createUploadTestApp('local');
    user = await createUser(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const put = t.app.storage.put.bind(t.app.storage);
    vi.spyOn(t.app.storage, 'put').mockImplementation(async (key, ...rest) => {
      const match = /^images\/([^/]+)\//.exec(key);
      if (match) variantPuts.set(match[1]!, (variantPuts.get(match[1]!) ?? 0) + 1);
      return put(key, ...rest);
    });
  });
  afterAll(async () => {
    printFigure(`upload races (${TEST_ENGINE})`, figures);
    await t.close();
  });

  async function send(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: Buffer,
  ) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'tus-resumable': '1.0.0', cookie: user.cookie, ...headers },
      ...(body ? { body } : {}),
    });
    const text = await res.text();
    figures.requests += 1;
    if (res.status >= 500) figures.answers5xx += 1;
    else if (res.status >= 400) figures.answers4xx += 1;
    else figures.answers2xx += 1;
    return { status: res.status, body: text, location: res.headers.get('location') };
  }

  const patch = (location: string, offset: number, chunk: Buffer) =>
    send(
      'PATCH',
      location,
      { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      chunk,
    );

  /** An upload of `bytes` with all but its last byte sent. */
  async function almostSent(bytes: Buffer) {
    const created = await send('POST', '/api/uploads', { 'upload-length': String(bytes.length) });
    expect(created.status).toBe(201);
    const location = created.location!;
    const first = await patch(location, 0, bytes.subarray(0, -1));
    expect(first.status).toBe(204);
    return { location, id: location.split('/').pop()! };
  }

  /** The last byte and RACERS empty PATCHes claiming to finish, all at once. */
  function finishRace(location: string, bytes: Buffer) {
    return [
      patch(location, bytes.length - 1, bytes.subarray(-1)),
      ...Array.from({ length: RACERS }, () => patch(location, bytes.length, Buffer.alloc(0))),
    ];
  }

  const statuses = (answers: { status: number }[]) => answers.map((a) => a.status);

  /**
   * Storage and rows agree: every stored file has its row, every processed row all its files.
   * `afterSweep`: a cancel that races a PATCH writing bytes may leave that PATCH's tus state without
   * its upload (features/images/images.service.ts, deleteOrphanTusState); the images' sweep removes
   * it, and only then is every tus state held to an upload in progress.
   */
  async function expectConsistent({ afterSweep = false } = {}) {
    const rows = await t.database.db.select().from(images);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const folders = new Map<string, number>();
    for (const o of await t.app.storage.list('images/')) {
      const id = o.key.split('/')[1]!;
      folders.set(id, (folders.get(id) ?? 0) + 1);
    }
    for (const [id, count] of folders) {
      const row = byId.get(id);
      expect(row, `files of image ${id} without a row`).toBeDefined();
      expect(['ready', 'attached'], `files of image ${id} in status ${row!.status}`).toContain(
        row!.status,
      );
      expect(count).toBe(IMAGE_VARIANTS.length);
    }
    for (const row of rows) {
      if (row.status === 'ready' || row.status === 'attached') {
        expect(folders.get(row.id), `ready image ${row.id} without its files`).toBe(
          IMAGE_VARIANTS.length,
        );
      } else expect(row.status).toBe('uploading');
    }
    if (afterSweep) await sweepImages(t.app.images);
    for (const o of await t.app.storage.list('tus/')) {
      const id = o.key.split('/')[1]!;
      expect(byId.get(id)?.status, `tus state of ${id} without an upload`).toBe('uploading');
    }
  }

  it.each([1, 2, 3])(
    'finishes an upload exactly once when %i: the last byte races 25 empty PATCHes',
    async () => {
      const bytes = await pngImage();
      const { location, id } = await almostSent(bytes);
      const answers = await Promise.all(finishRace(location, bytes));
      const codes = statuses(answers);
      expect(
        codes.filter((s) => s >= 500),
        codes.join(','),
      ).toEqual([]);
      expect(
        codes.filter((s) => s === 200),
        codes.join(','),
      ).toHaveLength(1);
      expect(codes.filter((s) => s !== 200).every((s) => s >= 400 && s < 500)).toBe(true);
      expect(variantPuts.get(id)).toBe(IMAGE_VARIANTS.length);
      const [row] = await t.database.db.select().from(images).where(eq(images.id, id));
      expect(row?.status).toBe('ready');
      await expectConsistent();
    },
  );

  it('refuses bad bytes once, leaving nothing, when the finish is raced', async () => {
    const bytes = textFile();
    const { location, id } = await almostSent(bytes);
    const codes = statuses(await Promise.all(finishRace(location, bytes)));
    expect(
      codes.filter((s) => s >= 500),
      codes.join(','),
    ).toEqual([]);
    expect(
      codes.filter((s) => s === 415),
      codes.join(','),
    ).toHaveLength(1);
    expect(codes.every((s) => s >= 400 && s < 500)).toBe(true);
    expect(await t.database.db.select().from(images).where(eq(images.id, id))).toEqual([]);
    expect(await t.app.storage.list(`tus/${id}/`)).toEqual([]);
    await expectConsistent();
  });

  it.each([1, 2, 3])(
    'cancels (DELETE) while the finish races, round %i: one outcome, never files without a row',
    async () => {
      const bytes = await pngImage();
      const { location, id } = await almostSent(bytes);
      const answers = await Promise.all([
        ...finishRace(location, bytes),
        ...Array.from({ length: 5 }, () => send('DELETE', location)),
      ]);
      const codes = statuses(answers);
      expect(
        codes.filter((s) => s >= 500),
        codes.join(','),
      ).toEqual([]);
      const patches = codes.slice(0, RACERS + 1);
      const deletes = codes.slice(RACERS + 1);
      expect(patches.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
      expect(deletes.filter((s) => s < 300).length, codes.join(',')).toBeLessThanOrEqual(1);
      expect(variantPuts.get(id) ?? 0).toBeLessThanOrEqual(IMAGE_VARIANTS.length);
      await expectConsistent({ afterSweep: true });
    },
  );

  it('sweeps tus state left without its upload, and keeps the state of uploads in progress', async () => {
    const bytes = await pngImage();
    const { id } = await almostSent(bytes);
    const orphan = crypto.randomUUID();
    await t.app.storage.put(`tus/${orphan}/part-0000000000`, Buffer.from('left behind'));
    await sweepImages(t.app.images);
    expect(await t.app.storage.list(`tus/${orphan}/`)).toEqual([]);
    expect((await t.app.storage.list(`tus/${id}/`)).length).toBeGreaterThan(0);
  });

  it('cancels an upload once when DELETE is sent 25 times at once', async () => {
    const bytes = await pngImage();
    const { location, id } = await almostSent(bytes);
    const codes = statuses(
      await Promise.all(Array.from({ length: RACERS }, () => send('DELETE', location))),
    );
    expect(
      codes.filter((s) => s === 204),
      codes.join(','),
    ).toHaveLength(1);
    expect(codes.filter((s) => s !== 204).every((s) => s === 404)).toBe(true);
    expect(await t.database.db.select().from(images).where(eq(images.id, id))).toEqual([]);
    expect(await t.app.storage.list(`tus/${id}/`)).toEqual([]);
    await expectConsistent();
  });

  it('deletes a processed image once when DELETE is sent 25 times at once', async () => {
    const bytes = await pngImage();
    const { location, id } = await almostSent(bytes);
    expect((await patch(location, bytes.length - 1, bytes.subarray(-1))).status).toBe(200);
    const codes = statuses(
      await Promise.all(Array.from({ length: RACERS }, () => send('DELETE', location))),
    );
    expect(
      codes.filter((s) => s === 200),
      codes.join(','),
    ).toHaveLength(1);
    expect(codes.filter((s) => s !== 200).every((s) => s >= 400 && s < 500)).toBe(true);
    expect(await t.database.db.select().from(images).where(eq(images.id, id))).toEqual([]);
    expect(await t.app.storage.list(`images/${id}/`)).toEqual([]);
    await expectConsistent();
  });

  it('creates one upload per POST when 25 are sent at once', async () => {
    const owner = await createUser(t);
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () =>
        fetch(`${base}/api/uploads`, {
          method: 'POST',
          headers: { 'tus-resumable': '1.0.0', cookie: owner.cookie, 'upload-length': '100' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const locations = new Set(answers.map((a) => a.headers.get('location')));
    expect(locations.size).toBe(RACERS);
    const rows = await t.database.db.select().from(images).where(eq(images.ownerId, owner.id));
    expect(rows).toHaveLength(RACERS);
    await expectConsistent();
  });
});
