import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../../test/helpers';
import { openSharedDatabase } from '../../../test/shared-database';
import { uploadLocks } from '../../db/platform.schema';
import { DatabaseLocker, LOCK_TIMEOUT } from './upload-locker';

const LEASE_MS = 30_000;

/** Two app servers' lockers on one database, with the test's clock. */
describe(`tus locks shared by app servers (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: DatabaseLocker;
  let b: DatabaseLocker;
  let now = new Date('2030-01-01T00:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    shared = await openSharedDatabase();
    a = new DatabaseLocker(shared.first, { leaseMs: LEASE_MS, now: clock });
    b = new DatabaseLocker(shared.second, { leaseMs: LEASE_MS, now: clock });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  const holders = async () => shared.first.db.select().from(uploadLocks);
  const never = new AbortController().signal;

  it('asks the holder on another server to let go, then takes the lock', async () => {
    const id = crypto.randomUUID();
    const lockA = a.newLock(id);
    const events: string[] = [];
    await lockA.lock(never, async () => {
      events.push('A asked to release');
      await lockA.unlock();
      events.push('A released');
    });
    const lockB = b.newLock(id);
    await lockB.lock(never, () => {});
    events.push('B holds');
    expect(events).toEqual(['A asked to release', 'A released', 'B holds']);
    expect(await holders()).toHaveLength(1);
    await lockB.unlock();
    expect(await holders()).toEqual([]);
  });

  it("takes the lock of a server that died once its lease expired, and the dead one's unlock is void", async () => {
    const id = crypto.randomUUID();
    const dead = a.newLock(id);
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    await dead.lock(never, () => asked()); // never releases: its server is gone

    const giveUp = new AbortController();
    const early = b.newLock(id).lock(giveUp.signal, () => {});
    await askedOnce; // B found it held and asked
    giveUp.abort();
    await expect(early).rejects.toBe(LOCK_TIMEOUT);

    now = new Date(now.getTime() + LEASE_MS);
    const lockB = b.newLock(id);
    await lockB.lock(never, () => {});
    const [row] = await holders();
    await dead.unlock(); // comes back late: not its lock any more
    expect(await holders()).toEqual([row]);
    await lockB.unlock();
  });

  it('lets one request at a time in, of 20 on two servers', async () => {
    const id = crypto.randomUUID();
    let inside = 0;
    let most = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const lock = (i % 2 ? a : b).newLock(id);
        await lock.lock(never, () => {});
        inside += 1;
        most = Math.max(most, inside);
        await shared.first.db.execute(sql`SELECT 1`);
        inside -= 1;
        done += 1;
        await lock.unlock();
      }),
    );
    expect(done).toBe(20);
    expect(most).toBe(1);
  });
});
