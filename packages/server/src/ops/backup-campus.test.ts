import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import {
  CAMPUS_KEYS,
  openTwoCampuses,
  type CampusKey,
  type CampusStudent,
  type TwoCampuses,
} from '../../test/two-campuses';
import { createLocalStorage } from '../lib/storage/local-storage';
import type { Storage } from '../lib/storage/storage';
import type { Config } from '../config/config';
import { verifyArchive } from './archive-reader';
import { campusStorageFor, findCampus } from './backup-campus';
import { runBackup } from './backup-command';
import { RestoreRefusedError } from './manifest';
import { noProgress } from './progress';
import { restoreCampus } from './restore-campus';
import { runRestore } from './restore-command';

const log = () => {};

// A campus backed up and restored alone (decision 024), on PostgreSQL: its archive holds its rows
// and its files only, and restoring it takes that campus back to the archive while the other
// campus keeps what it has now.
describe.skipIf(TEST_ENGINE !== 'postgres')('backup and restore of one campus', () => {
  let two: TwoCampuses;
  let config: Config;
  let shared: Storage;
  let dir: string;
  const students = {} as Record<CampusKey, CampusStudent>;

  const listingNames = async (key: CampusKey) =>
    (
      await two.admin.query<{ name: string }>(
        `SELECT name FROM campus_${key}.listings ORDER BY name`,
      )
    ).rows.map((r) => r.name);
  const imageIds = async (key: CampusKey) =>
    (
      await two.admin.query<{ id: string }>(`SELECT id::text AS id FROM campus_${key}.images`)
    ).rows.map((r) => r.id);
  const filesOf = async (key: CampusKey) =>
    (await shared.list(`campuses/${key}/`)).map((o) => o.key);

  beforeAll(async () => {
    two = await openTwoCampuses();
    config = { ...two.t.config, databaseUrl: two.url };
    shared = createLocalStorage(path.join(two.t.dataDir, 'uploads'));
    dir = mkdtempSync(path.join(tmpdir(), 'cb-campus-backup-'));
    for (const key of CAMPUS_KEYS) {
      students[key] = await two.studentOf(key);
      await two.listingOf(key, students[key], { name: `${key} Organic Chemistry` });
    }
  }, 120_000);

  afterAll(async () => {
    await two?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("backs up alpha's rows and files only, and restores alpha alone", async () => {
    const file = path.join(dir, 'alpha.tar');
    await runBackup({ config, file, campus: 'alpha', progress: noProgress, log });
    const manifest = await verifyArchive(file);
    expect(manifest.campus).toBe('alpha');
    expect(manifest.counts.users).toBe(1);
    expect(manifest.counts.listings).toBe(1);
    const [alphaImage] = await imageIds('alpha');
    expect(manifest.files.map((f) => f.key)).toContain(`images/${alphaImage}/full.webp`);
    expect(manifest.files.some((f) => f.key.startsWith('campuses/'))).toBe(false);
    const alphaFiles = await filesOf('alpha');
    const betaFilesBefore = await filesOf('beta');

    // Both campuses change after the backup.
    for (const key of CAMPUS_KEYS) {
      await two.listingOf(key, students[key], { name: `${key} Linear Algebra` });
    }
    expect(await listingNames('alpha')).toHaveLength(2);
    const betaNames = await listingNames('beta');
    const betaImages = await imageIds('beta');
    const betaFiles = await filesOf('beta');
    expect(betaFiles.length).toBeGreaterThan(betaFilesBefore.length);

    const jobsOf = async (key: CampusKey) =>
      (await two.admin.query(`SELECT key FROM campus_${key}.jobs ORDER BY key`)).rows;
    const alphaJobs = await jobsOf('alpha');
    expect(alphaJobs.length).toBeGreaterThan(0);

    const summary = await runRestore({ config, file, campus: 'alpha', progress: noProgress, log });
    expect(summary).toMatch(/^restore into campus alpha: 1 users, 1 listings/);
    // Alpha is back as it was backed up: its rows, and its files without the later image's.
    expect(await listingNames('alpha')).toEqual(['alpha Organic Chemistry']);
    expect(await imageIds('alpha')).toEqual([alphaImage]);
    expect((await filesOf('alpha')).sort()).toEqual([...alphaFiles].sort());
    // The running servers' rows are kept: alpha's recurring jobs stay scheduled.
    expect(await jobsOf('alpha')).toEqual(alphaJobs);
    // Beta is untouched.
    expect(await listingNames('beta')).toEqual(betaNames);
    expect((await imageIds('beta')).sort()).toEqual([...betaImages].sort());
    expect(await filesOf('beta')).toEqual(betaFiles);
    // The running app serves alpha's restored data on its host, its student still signed in.
    const mine = await two.send('alpha', 'GET', `/api/user/listings/${students.alpha.id}`, {
      cookie: students.alpha.cookie,
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.body).toContain('alpha Organic Chemistry');
    expect(mine.body).not.toContain('Linear Algebra');
    const photo = await two.send('alpha', 'GET', `/api/images/${alphaImage}/640.webp`);
    expect(photo.statusCode).toBe(200);
  }, 120_000);

  it('leaves the campus as it was when its restore fails midway', async () => {
    const file = path.join(dir, 'alpha-again.tar');
    await runBackup({ config, file, campus: 'alpha', progress: noProgress, log });
    await two.listingOf('alpha', students.alpha, { name: 'alpha Calculus' });
    const names = await listingNames('alpha');
    const files = await filesOf('alpha');
    const storage = campusStorageFor(config, 'alpha');
    let puts = 0;
    // The store fails on the archive's second file: after the schema was replaced and loaded.
    const failing: Storage = {
      ...storage,
      put: async (key, body, type) => {
        if (++puts > 1) throw new Error('the disk is full');
        return storage.put(key, body, type);
      },
    };
    const target = await findCampus(config, 'alpha');
    await expect(restoreCampus({ archive: file, target, storage: failing })).rejects.toThrow(
      'the disk is full',
    );
    expect(await listingNames('alpha')).toEqual(names);
    expect(await filesOf('alpha')).toEqual(files);
    const mine = await two.send('alpha', 'GET', `/api/user/listings/${students.alpha.id}`, {
      cookie: students.alpha.cookie,
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.body).toContain('alpha Calculus');
  }, 120_000);

  it('refuses a campus the directory does not have, or one being moved, changing nothing', async () => {
    await expect(
      runBackup({
        config,
        file: path.join(dir, 'x.tar'),
        campus: 'gamma',
        progress: noProgress,
        log,
      }),
    ).rejects.toThrow(/No campus "gamma" in the directory \(campuses: alpha, beta\)/);
    // A campus being moved is not restored: the move's copy would miss what the restore writes.
    const file = path.join(dir, 'beta.tar');
    await runBackup({ config, file, campus: 'beta', progress: noProgress, log });
    const names = await listingNames('beta');
    await two.admin.query(`UPDATE directory.campuses SET state = 'moving' WHERE key = 'beta'`);
    try {
      await expect(
        runRestore({ config, file, campus: 'beta', progress: noProgress, log }),
      ).rejects.toThrow(RestoreRefusedError);
    } finally {
      await two.admin.query(`UPDATE directory.campuses SET state = 'active' WHERE key = 'beta'`);
    }
    expect(await listingNames('beta')).toEqual(names);
  });
});
