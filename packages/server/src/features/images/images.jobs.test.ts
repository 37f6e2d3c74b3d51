import { eq, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { createAppOn, openSharedDatabase } from '../../../test/shared-database';
import { images } from '../../db/schema';
import { jobs } from '../../db/platform.schema';
import { retryDelayMs } from '../../jobs/job-context';
import { deleteImages } from './images.service';

const HOUR = 60 * 60 * 1000;

/**
 * The image sweep and the retries of failed file deletions are jobs (app.jobs): with two app servers
 * on one database, each runs once, on whichever server claims it.
 */
describe(`image jobs on two app servers (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let user: TestUser;
  let now = new Date();
  const clock = () => now;

  beforeAll(async () => {
    shared = await openSharedDatabase();
    a = await createAppOn(shared.first, {}, { now: clock, poll: false });
    b = await createAppOn(shared.second, {}, { now: clock, poll: false });
    user = await createUser(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  const rowOf = async (id: string) =>
    (await a.database.db.select().from(images).where(eq(images.id, id)))[0];
  const runBoth = async () => {
    const [ranA, ranB] = await Promise.all([a.app.jobs.runDue(), b.app.jobs.runDue()]);
    return ranA + ranB;
  };

  it('sweeps hourly, once across the servers', async () => {
    const schedule = await a.database.db.select().from(jobs).where(eq(jobs.name, 'sweep-images'));
    expect(schedule).toHaveLength(1);
    expect(schedule[0]!.intervalMs).toBe(HOUR);

    // An upload abandoned two days ago (by the clock of the jobs).
    const id = crypto.randomUUID();
    await a.database.db.insert(images).values({
      id,
      ownerId: user.id,
      status: 'uploading',
      createdAt: new Date(now.getTime() - 48 * HOUR),
    });
    expect(await runBoth()).toBe(0); // not yet an hour
    expect(await rowOf(id)).toBeDefined();

    now = new Date(schedule[0]!.runAt.getTime());
    // Other features' recurring jobs fall due within the hour too: each due job runs once, on one server.
    const due = await a.database.db.select().from(jobs).where(lte(jobs.runAt, now));
    expect(due.map((job) => job.name)).toContain('sweep-images');
    expect(await runBoth()).toBe(due.length);
    expect(await rowOf(id)).toBeUndefined();
    const [next] = await a.database.db.select().from(jobs).where(eq(jobs.name, 'sweep-images'));
    expect(next!.runAt.getTime()).toBe(schedule[0]!.runAt.getTime() + HOUR);
  });

  it('retries a failed file deletion as a job, with a delay, until it succeeds', async () => {
    const id = crypto.randomUUID();
    await a.database.db.insert(images).values({ id, ownerId: user.id, status: 'ready' });
    const storage = a.app.storage;
    const realDelete = storage.delete.bind(storage);
    storage.delete = async () => {
      throw new Error('storage unavailable');
    };
    // Each test server has its own DATA_DIR: the file is in both, as in the bucket they would share.
    await b.app.storage.put(`images/${id}/full.webp`, Buffer.from('x'));
    await storage.put(`images/${id}/full.webp`, Buffer.from('x'));
    try {
      expect(await deleteImages(a.app.images, [id])).toBe(0);
    } finally {
      storage.delete = realDelete;
    }
    expect((await rowOf(id))?.status).toBe('deleting');
    const [job] = await a.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `delete-image:${id}`));
    expect(job).toMatchObject({ name: 'delete-image', payload: { id } });

    // Server B's storage fails too: the job is retried later.
    const bStorage = b.app.storage;
    const bDelete = bStorage.delete.bind(bStorage);
    bStorage.delete = async () => {
      throw new Error('storage unavailable');
    };
    a.app.storage.delete = bStorage.delete;
    try {
      expect(await runBoth()).toBe(1);
    } finally {
      bStorage.delete = bDelete;
      a.app.storage.delete = realDelete;
    }
    expect((await rowOf(id))?.status).toBe('deleting');
    expect(await runBoth()).toBe(0);
    now = new Date(now.getTime() + retryDelayMs(1));
    expect(await runBoth()).toBe(1);
    expect(await rowOf(id)).toBeUndefined();
    expect(
      await a.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `delete-image:${id}`)),
    ).toEqual([]);
  });
});
