import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import { pngImage } from '../../test/support/test-images';
import { uploadedImage } from '../../test/support/tus-test-client';
import {
  CAMPUS_HOSTS,
  CAMPUS_KEYS,
  openTwoCampuses,
  type CampusKey,
  type CampusStudent,
  type TwoCampuses,
} from '../../test/two-campuses';
import { readImageFile } from '../features/images/images.service';
import { readExport, signExportToken } from '../features/privacy/data-export';
import { createLocalStorage } from '../lib/storage/local-storage';
import { deletePrefix, type Storage } from '../lib/storage/storage';
import { runInCampus, runOutsideCampus } from './campus-context';

const TUS = { 'tus-resumable': '1.0.0' };

// Each campus's files under its own prefix of the store every campus shares (decision 024), on
// PostgreSQL: what a campus writes lands in `campuses/<key>/`, and what it reads, lists or deletes
// is looked for there only, whatever key it is handed.
describe.skipIf(TEST_ENGINE !== 'postgres')("each campus's folder of the store", () => {
  let two: TwoCampuses;
  let app: FastifyInstance;
  /** The store itself, as the operator sees DATA_DIR/uploads. */
  let shared: Storage;
  const students = {} as Record<CampusKey, CampusStudent>;

  const inCampus = <T>(key: CampusKey, work: () => Promise<T>) =>
    runInCampus(two.campusOf(key), work);
  const keysUnder = async (prefix: string) => (await shared.list(prefix)).map((o) => o.key);

  /** A photo sent over tus on the campus's host, as the web app sends it; answers its id. */
  async function upload(key: CampusKey, student: CampusStudent): Promise<string> {
    const bytes = await pngImage();
    const created = await two.send(key, 'POST', '/api/uploads', {
      cookie: student.cookie,
      headers: {
        ...TUS,
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${Buffer.from('book.png').toString('base64')}`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    const sent = await two.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...TUS,
        host: CAMPUS_HOSTS[key],
        cookie: student.cookie,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: bytes,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    return uploadedImage({ ...sent, json: () => sent.json() })._id;
  }

  beforeAll(async () => {
    two = await openTwoCampuses();
    app = two.app;
    shared = createLocalStorage(path.join(two.t.dataDir, 'uploads'));
    for (const key of CAMPUS_KEYS) students[key] = await two.studentOf(key);
  }, 120_000);

  afterAll(async () => {
    await two?.close();
  });

  it("stores a photo uploaded on alpha's host under alpha's prefix, its upload state too", async () => {
    const id = await upload('alpha', students.alpha);
    expect(await keysUnder(`campuses/alpha/images/${id}/`)).toContain(
      `campuses/alpha/images/${id}/full.webp`,
    );
    expect(await keysUnder(`images/${id}/`)).toEqual([]);
    expect(await keysUnder(`tus/${id}/`)).toEqual([]);
    expect((await keysUnder('campuses/beta/')).filter((k) => k.includes(id))).toEqual([]);
    // Alpha sees its photo at the keys every campus uses; beta's host serves nothing of it.
    expect((await two.send('alpha', 'GET', `/api/images/${id}/640.webp`)).statusCode).toBe(200);
    expect((await two.send('beta', 'GET', `/api/images/${id}/640.webp`)).statusCode).toBe(404);
  });

  it("gives beta nothing of alpha's files even with alpha's keys, and deletes none", async () => {
    const id = await upload('alpha', students.alpha);
    const full = `images/${id}/full.webp`;
    // Past the image route's row check: the store itself, asked as beta.
    await inCampus('beta', async () => {
      expect(await app.storage.get(full)).toBeNull();
      expect(await readImageFile(app.storage, id, 'full.webp')).toBeNull();
      expect(await app.storage.get(`campuses/alpha/${full}`)).toBeNull();
      expect(await app.storage.list(`images/${id}/`)).toEqual([]);
      await deletePrefix(app.storage, `images/${id}/`);
      await app.storage.delete(full);
    });
    // The default campus's view refuses the campuses' folder outright.
    await runOutsideCampus(async () => {
      await expect(app.storage.get(`campuses/alpha/${full}`)).rejects.toThrow(/Unsafe storage key/);
      expect((await app.storage.list('')).some((o) => o.key.startsWith('campuses/'))).toBe(false);
    });
    expect(await inCampus('alpha', () => app.storage.get(full))).not.toBeNull();
    expect(await keysUnder(`campuses/alpha/images/${id}/`)).toContain(`campuses/alpha/${full}`);
  });

  it("deletes alpha's files only when alpha's student deletes the account", async () => {
    const leaving = await two.studentOf('alpha');
    const alphaPhoto = await upload('alpha', leaving);
    const betaPhoto = await upload('beta', students.beta);
    // The same image id in beta's folder (as if guessed): alpha's deletion must not reach it.
    const copy = `images/${alphaPhoto}/full.webp`;
    await inCampus('beta', () => app.storage.put(copy, Buffer.from('beta bytes')));
    const deleted = await two.send('alpha', 'DELETE', `/api/user/delete/${leaving.id}`, {
      cookie: leaving.cookie,
      payload: { currentPassword: leaving.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await keysUnder(`campuses/alpha/images/${alphaPhoto}/`)).toEqual([]);
    expect(await keysUnder(`campuses/beta/images/${betaPhoto}/`)).toContain(
      `campuses/beta/images/${betaPhoto}/full.webp`,
    );
    expect(await inCampus('beta', () => app.storage.get(copy))).toEqual(Buffer.from('beta bytes'));
  });

  it("keeps a student's data export in the campus's folder, readable on its host only", async () => {
    const student = students.alpha;
    const asked = await two.send('alpha', 'POST', '/api/data-export', { cookie: student.cookie });
    expect(asked.statusCode, asked.body).toBe(202);
    await app.jobs.runDue();
    const [stored] = await keysUnder(`campuses/alpha/exports/${student.id}/`);
    expect(stored).toMatch(/\/(\d+)-([0-9a-f-]+)\.tar$/);
    expect(await keysUnder('exports/')).toEqual([]);
    expect(await keysUnder('campuses/beta/exports/')).toEqual([]);
    const [, expires, exportId] = /\/(\d+)-([0-9a-f-]+)\.tar$/.exec(stored!)!;
    const link = { userId: student.id, exportId: exportId!, expires: Number(expires) };
    const token = signExportToken(two.t.config.sessionSecret, {
      u: link.userId,
      e: link.exportId,
      x: link.expires,
    });
    const url = `/api/data-export/download?token=${encodeURIComponent(token)}`;
    const download = await two.send('alpha', 'GET', url, { cookie: student.cookie });
    expect(download.statusCode, download.body).toBe(200);
    expect(await inCampus('alpha', () => readExport(app.storage, link))).not.toBeNull();
    expect(await inCampus('beta', () => readExport(app.storage, link))).toBeNull();
  });
});
