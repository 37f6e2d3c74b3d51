import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { insertListings } from '../../test/listing-fixtures';
import { listings } from '../db/schema';
import { maintainEmbeddedDatabase } from './database';

async function tableState(t: TestApp) {
  const result = (await t.database.db.execute(
    sql`SELECT relallvisible, reltuples FROM pg_class WHERE relname = 'listings'`,
  )) as unknown as { rows: { relallvisible: number; reltuples: number }[] };
  return result.rows[0]!;
}

describe(`database maintenance (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('vacuums and analyzes: visibility map set, live rows counted after a deletion', async () => {
    const seller = await createUser(t);
    const ids = await insertListings(
      t,
      seller.id,
      Array.from({ length: 300 }, (_, i) => ({ name: `Maintained Book ${i}` })),
    );
    await t.database.db.delete(listings).where(eq(listings.id, ids[0]!));
    await maintainEmbeddedDatabase(t.database);
    const state = await tableState(t);
    expect(state.relallvisible).toBeGreaterThan(0);
    expect(Number(state.reltuples)).toBe(299);
  });
});
