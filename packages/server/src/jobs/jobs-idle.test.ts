import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../test/helpers';
import type { Database } from '../db/database';
import type { Db } from '../db/db-type';
import type { JobScope } from './job-options';
import { Jobs } from './jobs';

const SCOPES = 50;
const MINUTE = 60_000;
const IDLE_SCAN_MS = 60 * MINUTE;
/** The recurring job's first slot falls after the first idle scan and before the second. */
const EVERY_MS = 2 * IDLE_SCAN_MS;

/**
 * What an idle job runner costs with many scopes (decision 024: one per campus). The scopes share
 * one `jobs` table here (each would have its own): what is counted is the statements the runner
 * sends. The first scope's schema is the table's (`public`), so its enqueues' NOTIFY names it.
 */
describe('an idle job runner serving many scopes', () => {
  let database: Database;
  let statements = 0;
  let now = new Date('2030-01-01T00:00:00Z');
  let jobs: Jobs;
  const runs: string[] = [];

  /** The database's `db`, counting every statement the runner sends. */
  const counted = (db: Db): Db =>
    new Proxy(db, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property !== 'execute' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          statements += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const scopes: JobScope[] = Array.from({ length: SCOPES }, (_, i) => ({
    key: i === 0 ? '' : `campus${i}`,
    schema: i === 0 ? 'public' : `campus_campus${i}`,
    run: (work) => work(),
  }));
  const later = (ms: number) => (now = new Date(now.getTime() + ms));
  /** The statements one look sends (what each poll does, every JOBS_POLL_MS). */
  const oneLook = async () => {
    statements = 0;
    await jobs.poll();
    return statements;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    jobs = new Jobs(
      { db: counted(database.db), listen: database.listen },
      // The poll's own timer never fires here: the test looks when it says.
      { now: () => now, pollMs: 3_600_000, idleScanMs: IDLE_SCAN_MS, scopes },
    );
    jobs.register('test.recurring', async () => void runs.push('recurring'), { every: EVERY_MS });
    jobs.register('test.one-off', async () => void runs.push('one-off'));
    await jobs.start({ poll: true });
    await jobs.poll();
  });
  afterAll(async () => {
    await jobs?.stop();
    await database?.close();
  });

  it('sends nothing at a look while no scope has a job due, one statement a scope per idle scan', async () => {
    for (let i = 0; i < 10; i += 1) {
      later(MINUTE / 2);
      expect(await oneLook()).toBe(0);
    }
    later(IDLE_SCAN_MS);
    // When each scope's next job is due, nothing more: none is due.
    expect(await oneLook()).toBe(SCOPES);
    expect(await oneLook()).toBe(0);
    expect(runs).toEqual([]);
  });

  it('runs a recurring job when its slot comes, from the due time each scope remembered', async () => {
    later(EVERY_MS - IDLE_SCAN_MS - 5 * MINUTE + 1_000);
    expect(await oneLook()).toBeGreaterThan(0);
    // Each scope remembered the slot (their shared table has one): the first runs it, the others
    // find the next slot.
    expect(runs).toEqual(['recurring']);
    expect(await oneLook()).toBe(0);
  });

  it("wakes only the scope an enqueue's NOTIFY names", async () => {
    runs.length = 0;
    await jobs.enqueue('test.one-off');
    statements = 0;
    await vi.waitFor(() => expect(runs).toEqual(['one-off']));
    await jobs.poll();
    // Its next due time, the claim, the job's end, the empty claim and its next due time again:
    // one scope's work, not fifty.
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(6);
  });

  it('wakes every scope on a NOTIFY that names none (a server of an earlier version)', async () => {
    statements = 0;
    await database.db.execute(sql`SELECT pg_notify('jobs', 'test.one-off')`);
    await vi.waitFor(() => expect(statements).toBeGreaterThanOrEqual(SCOPES));
    await jobs.poll();
    expect(await oneLook()).toBe(0);
  });
});
