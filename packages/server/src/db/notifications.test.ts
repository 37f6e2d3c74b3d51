import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, TEST_ENGINE } from '../../test/helpers';
import type { Database } from './database';
import { rowsOf } from './rows';

/** LISTEN/NOTIFY through `database.listen`, on the engine under test. */
describe(`database notifications (${TEST_ENGINE})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** Ends the listening connections (their last statement a LISTEN or a fence's NOTIFY). */
  const killListeners = () =>
    database.db.execute(sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND (query LIKE 'LISTEN%' OR query LIKE 'NOTIFY "heard_%')`);

  /** Resolves once `received` holds `count` payloads (notifications arrive on their own time). */
  const until = (received: string[], count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (received.length >= count ? resolve() : setImmediate(check));
      check();
    });

  it('delivers a NOTIFY once its transaction committed, and stops after unlisten', async () => {
    const received: string[] = [];
    const unlisten = await database.listen('test_channel', (payload) => received.push(payload));
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_notify('test_channel', 'in a transaction')`);
      expect(received).toEqual([]);
    });
    await until(received, 1);
    expect(received).toEqual(['in a transaction']);
    await unlisten();
    await database.db.execute(sql`SELECT pg_notify('test_channel', 'after')`);
    await database.db.execute(sql`SELECT 1`);
    expect(received).toEqual(['in a transaction']);
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'reconnects when its connection is killed, says so, and listens again',
    async () => {
      const received: string[] = [];
      let reconnected!: () => void;
      const reconnection = new Promise<void>((resolve) => (reconnected = resolve));
      const unlisten = await database.listen(
        'test_reconnect',
        (payload) => received.push(payload),
        () => reconnected(),
      );
      await killListeners();
      await reconnection;
      await database.db.execute(sql`SELECT pg_notify('test_reconnect', 'after reconnection')`);
      await until(received, 1);
      expect(received).toEqual(['after reconnection']);
      await unlisten();
    },
  );

  it.runIf(TEST_ENGINE === 'postgres')(
    "heard() resolves once every transaction's notification committed before it was handled",
    async () => {
      const received: string[] = [];
      const unlisten = await database.listen('test_fence', (payload) => received.push(payload));
      for (let round = 0; round < 20; round += 1) {
        // Each committed (and acknowledged) on a pooled connection, then the fence at once.
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT pg_notify('test_fence', ${`${round}`})`);
        });
        await database.heard!();
        expect(received).toHaveLength(round + 1);
      }
      await unlisten();
    },
  );

  it.runIf(TEST_ENGINE === 'postgres')(
    'a fence fails on a lost connection, and one heard after a reconnection follows onReconnect',
    async () => {
      let reconnections = 0;
      const unlisten = await database.listen(
        'test_fence_lost',
        () => {},
        () => (reconnections += 1),
      );
      await database.heard!();
      await killListeners();
      // At once: the loss may not be noticed yet (the NOTIFY fails on it), or the fence goes on a
      // new connection, whose listeners first hear that notifications may have been missed.
      const outcome = await database.heard!().then(
        () => `heard after ${reconnections} reconnection`,
        () => 'failed',
      );
      expect(['failed', 'heard after 1 reconnection']).toContain(outcome);
      await vi.waitFor(() => database.heard!());
      expect(reconnections).toBe(1);
      await unlisten();
    },
  );

  it.runIf(TEST_ENGINE === 'postgres')(
    'a fence asked after close fails and opens no connection again',
    async () => {
      const other = await openTestDatabase();
      await other.heard!();
      const [{ name }] = (await rowsOf<{ name: string }>(
        other.db,
        sql`SELECT current_database() AS name`,
      )) as [{ name: string }];
      // Its fences' connection, counted from the suite's own handle (the other one is closed).
      const listening = async () =>
        (
          await rowsOf<{ n: number }>(
            database.db,
            sql`SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE datname = ${name} AND query LIKE 'NOTIFY "heard_%'`,
          )
        )[0]!.n;
      expect(await listening()).toBe(1);
      await other.close();
      await expect(other.heard!()).rejects.toThrow('not listening');
      await vi.waitFor(async () => expect(await listening()).toBe(0));
    },
  );
});
