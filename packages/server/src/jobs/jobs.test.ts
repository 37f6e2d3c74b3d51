import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSharedDatabase } from '../../test/shared-database';
import { jobs as jobsTable } from '../db/platform.schema';
import { nextDailyHour } from './zoned-time';
import { LeaseLostError, nextSlot, retryDelayMs, type JobContext } from './job-context';
import { Jobs } from './jobs';

const LEASE_MS = 60_000;
/** A run_at no server reaches: rows that record what a job did. */
const FAR = new Date('9999-01-01T00:00:00Z');
let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
let now: Date;
const clock = () => now;
const later = (ms: number) => (now = new Date(now.getTime() + ms));

beforeAll(async () => {
  shared = await openSharedDatabase();
});
afterAll(async () => {
  await shared.close();
});
afterEach(async () => {
  await shared.first.db.execute(sql`DELETE FROM jobs`);
});

/** Two app servers' job runners on one database, both with the test's clock. */
function twoServers() {
  now = new Date('2030-01-01T00:00:00Z');
  return [
    new Jobs(shared.first, { now: clock, leaseMs: LEASE_MS }),
    new Jobs(shared.second, { now: clock, leaseMs: LEASE_MS }),
  ] as const;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const rows = () => shared.first.db.select().from(jobsTable);

describe('jobs shared by several app servers', () => {
  it('runs a due job once, whichever server looks first or both at once', async () => {
    const [a, b] = twoServers();
    const runs: string[] = [];
    for (const jobs of [a, b]) {
      jobs.register<{ n: number }>('count', async ({ payload }) => {
        runs.push(String(payload.n));
      });
    }
    for (let n = 0; n < 20; n += 1) await a.enqueue('count', { n });
    await b.enqueue('count', { n: 'later' }, { runAt: new Date(now.getTime() + 1000) });

    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ranA + ranB).toBe(20);
    expect(runs.toSorted()).toEqual(Array.from({ length: 20 }, (_, n) => String(n)).toSorted());
    // Done jobs are gone; the one not yet due waits.
    expect((await rows()).map((r) => r.payload)).toEqual([{ n: 'later' }]);
    later(1000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toHaveLength(21);
    expect(await rows()).toEqual([]);
  });

  it('enqueues a keyed job once, even 25 times at once', async () => {
    const [a, b] = twoServers();
    const added = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        (i % 2 ? a : b).enqueue('mail', { to: 'x' }, { key: 'mail:x' }),
      ),
    );
    expect(added.filter(Boolean)).toHaveLength(1);
    expect(await rows()).toHaveLength(1);
  });

  it('runs again a job whose server died, once its lease expired, and ignores the dead claim', async () => {
    const [a, b] = twoServers();
    const started = { a: deferred(), b: deferred() };
    const release = { a: deferred(), b: deferred() };
    const attempts: number[] = [];
    const handler = (who: 'a' | 'b') => async (context: JobContext) => {
      attempts.push(context.attempt);
      started[who].resolve();
      await release[who].promise;
    };
    a.register('slow', handler('a'));
    b.register('slow', handler('b'));
    await a.enqueue('slow');

    const passA = a.runDue();
    await started.a.promise; // server A holds the job (and will "die": it never renews here)
    expect(await b.runDue()).toBe(0); // the lease holds
    later(LEASE_MS - 1);
    expect(await b.runDue()).toBe(0);
    later(1);
    const passB = b.runDue();
    await started.b.promise; // the lease expired: B runs it again
    expect(attempts).toEqual([1, 2]);

    release.a.resolve(); // A comes back late: its claim is gone, the job stays B's
    await passA;
    expect(await rows()).toHaveLength(1);
    release.b.resolve();
    expect(await passB).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('commits the work done with once() with its run: one per slot when a lease went to another server', async () => {
    const [a, b] = twoServers();
    const every = 10 * 60_000;
    const releaseA = deferred();
    const startedA = deferred();
    const outcomes: string[] = [];
    const handler =
      (jobs: Jobs, wait: boolean) =>
      async ({ scheduledFor, once }: JobContext) => {
        if (wait) {
          startedA.resolve();
          await releaseA.promise; // server A stalls past its lease
        }
        try {
          await once((tx) =>
            jobs.enqueue('tick-ran', { slot: scheduledFor.toISOString() }, { db: tx, runAt: FAR }),
          );
          outcomes.push('committed');
        } catch (error) {
          outcomes.push(error instanceof LeaseLostError ? 'lease lost' : String(error));
          throw error;
        }
      };
    a.register('tick', handler(a, true), { every });
    b.register('tick', handler(b, false), { every });
    await Promise.all([a.start({ poll: false }), b.start({ poll: false })]);

    later(every);
    const passA = a.runDue();
    await startedA.promise;
    later(LEASE_MS);
    expect(await b.runDue()).toBe(1); // B took the slot over and did its work
    releaseA.resolve();
    expect(await passA).toBe(1);
    expect(outcomes).toEqual(['committed', 'lease lost']);

    const all = await rows();
    expect(all.filter((r) => r.name === 'tick-ran').map((r) => r.payload)).toEqual([
      { slot: '2030-01-01T00:10:00.000Z' },
    ]);
    const [tick] = all.filter((r) => r.name === 'tick');
    expect(tick!.runAt.toISOString()).toBe('2030-01-01T00:20:00.000Z');
    expect(tick!.lockedBy).toBeNull();
  });

  it('rolls back the work done with once() when it fails, and retries the job', async () => {
    const [a] = twoServers();
    a.register('failing', async ({ once }) => {
      await once(async (tx) => {
        await a.enqueue('effect', {}, { db: tx, runAt: FAR });
        throw new Error('the work failed');
      });
    });
    await a.enqueue('failing');
    expect(await a.runDue()).toBe(1);
    const all = await rows();
    expect(all.map((r) => r.name)).toEqual(['failing']);
    expect(all[0]!.lastError).toBe('the work failed');
    expect(all[0]!.runAt.getTime() - now.getTime()).toBe(retryDelayMs(1));
  });

  it('retries a failing job later and later, then gives up and keeps it with its error', async () => {
    const [a] = twoServers();
    let calls = 0;
    a.register('flaky', async () => {
      calls += 1;
      throw new Error(`failure ${calls}`);
    });
    await a.enqueue('flaky', {}, { maxAttempts: 3 });

    expect(await a.runDue()).toBe(1);
    let [row] = await rows();
    expect(row!.runAt.getTime() - now.getTime()).toBe(retryDelayMs(1));
    expect(row!.lastError).toBe('failure 1');

    later(retryDelayMs(1) - 1);
    expect(await a.runDue()).toBe(0);
    later(1);
    expect(await a.runDue()).toBe(1);
    [row] = await rows();
    expect(row!.runAt.getTime() - now.getTime()).toBe(retryDelayMs(2));
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));

    later(retryDelayMs(2));
    expect(await a.runDue()).toBe(1);
    [row] = await rows();
    expect(row!.failedAt).toEqual(now);
    expect(row!.lastError).toBe('failure 3');
    later(24 * 3600_000);
    expect(await a.runDue()).toBe(0);
    expect(calls).toBe(3);
  });

  it('runs a recurring job once per slot across servers, skipping slots missed while all were down', async () => {
    const [a, b] = twoServers();
    const slots: string[] = [];
    const every = 10 * 60_000;
    for (const jobs of [a, b]) {
      jobs.register(
        'tick',
        async ({ scheduledFor }) => {
          slots.push(scheduledFor.toISOString());
        },
        { every },
      );
    }
    await Promise.all([a.start({ poll: false }), b.start({ poll: false })]);
    expect(await rows()).toHaveLength(1);

    await Promise.all([a.runDue(), b.runDue()]);
    expect(slots).toEqual([]);
    later(every);
    await Promise.all([a.runDue(), b.runDue()]);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(slots).toEqual(['2030-01-01T00:10:00.000Z']);

    later(25 * 60_000); // 00:35: the 00:20 and 00:30 slots were missed
    await Promise.all([a.runDue(), b.runDue()]);
    expect(slots).toEqual(['2030-01-01T00:10:00.000Z', '2030-01-01T00:20:00.000Z']);
    const [row] = await rows();
    expect(row!.runAt.toISOString()).toBe('2030-01-01T00:40:00.000Z');
    await Promise.all([a.stop(), b.stop()]);
  });

  it('at a start, moves the recurring slots missed while down to its first look, after its warm-up', async () => {
    now = new Date('2030-01-01T00:00:00Z');
    const every = 10 * 60_000;
    const before = new Jobs(shared.first, { now: clock, leaseMs: LEASE_MS });
    before.register('tick', async () => {}, { every });
    await before.start({ poll: false });
    await before.stop();
    later(25 * 60_000); // 00:25: no server ran at 00:10 and 00:20

    const slots: string[] = [];
    const started = new Jobs(shared.first, { now: clock, leaseMs: LEASE_MS, startDelayMs: 10_000 });
    started.register(
      'tick',
      async ({ scheduledFor }) => {
        slots.push(scheduledFor.toISOString());
      },
      { every },
    );
    await started.start({ poll: true });
    const [row] = await rows();
    expect(row!.runAt.toISOString()).toBe('2030-01-01T00:25:10.000Z');
    expect(await started.runDue()).toBe(0); // nothing of the backlog in the first seconds
    later(10_000);
    expect(await started.runDue()).toBe(1);
    expect(slots).toEqual(['2030-01-01T00:25:10.000Z']);
    await started.stop();
  });

  it('at a start, leaves a recurring slot that is not yet due where it is (another server runs it on time)', async () => {
    now = new Date('2030-01-01T00:00:00Z');
    const every = 10 * 60_000;
    const running = new Jobs(shared.first, { now: clock, leaseMs: LEASE_MS });
    running.register('tick', async () => {}, { every });
    await running.start({ poll: false });
    later(every - 5_000); // 00:09:55: the 00:10 slot is 5 s away, inside a new server's warm-up

    const restarted = new Jobs(shared.first, {
      now: clock,
      leaseMs: LEASE_MS,
      startDelayMs: 10_000,
    });
    restarted.register('tick', async () => {}, { every });
    await restarted.start({ poll: true });
    const [row] = await rows();
    expect(row!.runAt.toISOString()).toBe('2030-01-01T00:10:00.000Z');
    later(5_000);
    expect(await running.runDue()).toBe(1);
    await Promise.all([running.stop(), restarted.stop()]);
  });

  it('runs a calendar job at its hour of the campus day, across a change of clocks, catching up once', async () => {
    const [a, b] = twoServers();
    now = new Date('2030-03-08T15:00:00Z'); // New York's clocks go forward on 10 March 2030
    const runs: string[] = [];
    const register = (jobs: Jobs, hour: number) =>
      jobs.register(
        'digest',
        async ({ scheduledFor }) => {
          runs.push(scheduledFor.toISOString());
        },
        { every: 24 * 60 * 60_000, at: (after) => nextDailyHour('America/New_York', hour, after) },
      );
    register(a, 7);
    register(b, 7);
    await Promise.all([a.start({ poll: false }), b.start({ poll: false })]);
    const runAt = async () => (await rows())[0]!.runAt.toISOString();
    expect(await runAt()).toBe('2030-03-09T12:00:00.000Z'); // 07:00 EST

    later(21 * 60 * 60_000 - 1); // 11:59:59.999 UTC: not yet
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toEqual([]);
    later(1);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toEqual(['2030-03-09T12:00:00.000Z']);
    expect(await runAt()).toBe('2030-03-10T11:00:00.000Z'); // 07:00 EDT, 23 hours later

    // Every server down from before that slot until 15:00 the day after: one late run, then 07:00.
    await Promise.all([a.stop(), b.stop()]);
    now = new Date('2030-03-11T19:00:00Z');
    const [c] = [new Jobs(shared.first, { now: clock, leaseMs: LEASE_MS })];
    register(c, 7);
    await c.start({ poll: false });
    await c.runDue();
    await c.runDue();
    expect(runs).toEqual(['2030-03-09T12:00:00.000Z', '2030-03-10T11:00:00.000Z']);
    expect(await runAt()).toBe('2030-03-12T11:00:00.000Z');

    // Started again with another hour: the pending slot moves to it.
    await c.stop();
    const d = new Jobs(shared.first, { now: clock, leaseMs: LEASE_MS });
    register(d, 9);
    await d.start({ poll: false });
    expect(await runAt()).toBe('2030-03-12T13:00:00.000Z');
    await d.stop();
  });

  it('computes the next slot after now', () => {
    const slot = new Date('2030-01-01T00:00:00Z');
    expect(nextSlot(slot, 1000, new Date('2030-01-01T00:00:00.500Z')).toISOString()).toBe(
      '2030-01-01T00:00:01.000Z',
    );
    expect(nextSlot(slot, 1000, new Date('2030-01-01T00:00:03Z')).toISOString()).toBe(
      '2030-01-01T00:00:04.000Z',
    );
  });

  it('waits for the job it runs when it stops, and starts no other', async () => {
    const [a] = twoServers();
    const started = deferred();
    const release = deferred();
    let finished = 0;
    a.register('work', async () => {
      started.resolve();
      await release.promise;
      finished += 1;
    });
    await a.enqueue('work');
    await a.enqueue('work');
    await a.start({ poll: true });
    await started.promise;
    const stopped = a.stop();
    release.resolve();
    await stopped;
    expect(finished).toBeGreaterThanOrEqual(1);
    expect(await a.runDue()).toBe(0); // stopped: claims nothing more
  });
});
