import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import type { Db } from './database';
import { NAMED_SHAPES, preparedByShape } from './prepared';

describe('statements kept by shape', () => {
  it('builds each shape once, and names only the first NAMED_SHAPES shapes', () => {
    const db = {} as Db;
    const names: string[] = [];
    const prepare = (name: string) => {
      names.push(name);
      return { name };
    };
    for (let i = 0; i < NAMED_SHAPES + 50; i += 1) preparedByShape(db, `shape ${i}`, prepare);
    // Asked again: the same statement, not built again.
    const again = preparedByShape(db, 'shape 0', prepare);
    expect(names).toHaveLength(NAMED_SHAPES + 50);
    expect(again).toEqual({ name: names[0] });
    expect(new Set(names.slice(0, NAMED_SHAPES)).size).toBe(NAMED_SHAPES);
    expect(names.slice(0, NAMED_SHAPES).every((n) => /^search_shape_\d+$/.test(n))).toBe(true);
    // Past the cap, a caller inventing shapes gets unnamed statements: nothing more kept per connection.
    expect(names.slice(NAMED_SHAPES)).toEqual(Array(50).fill(''));
  });
});

describe.runIf(TEST_ENGINE === 'postgres')('the pool’s connections (postgres)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('plan named statements with their values (never a generic plan)', async () => {
    const modes = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const result = (await t.database.db.execute(sql`SHOW plan_cache_mode`)) as unknown as {
          rows: { plan_cache_mode: string }[];
        };
        return result.rows[0]!.plan_cache_mode;
      }),
    );
    expect(modes).toEqual(Array(5).fill('force_custom_plan'));
  });
});
