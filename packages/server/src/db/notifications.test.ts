import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINE } from '../../test/helpers';
import type { Database } from './database';

/** LISTEN/NOTIFY through `database.listen`, on the engine under test. */
describe(`database notifications (${TEST_ENGINE})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

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
      await database.db.execute(sql`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`);
      await reconnection;
      await database.db.execute(sql`SELECT pg_notify('test_reconnect', 'after reconnection')`);
      await until(received, 1);
      expect(received).toEqual(['after reconnection']);
      await unlisten();
    },
  );
});
