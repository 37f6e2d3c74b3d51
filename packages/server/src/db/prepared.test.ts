import { sql } from 'drizzle-orm';
import { listingSearchSchema } from '@campus-books/common/listing.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_ENGINE } from '../../test/helpers';
import { searchListings } from '../features/search/search-listings';
import { openDatabase, withStartupOption, type Database, type Db } from './database';
import { NAMED_SHAPES, preparedByShape } from './prepared';
import { listings, users } from './schema';

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

describe("a pool's start-up options", () => {
  const option = '-c plan_cache_mode=force_custom_plan';
  it("are pg's own option, or added after the connection string's", () => {
    expect(withStartupOption('postgres://u@h/db', option)).toEqual({
      connectionString: 'postgres://u@h/db',
      options: option,
    });
    const named = withStartupOption(
      'postgres://u@h/db?options=-c%20statement_timeout%3D5000',
      option,
    );
    expect(new URL(named.connectionString).searchParams.get('options')).toBe(
      `-c statement_timeout=5000 ${option}`,
    );
    expect(named.options).toBeUndefined();
    // Not a URL by WHATWG's rules (an empty host, which pg reads): its own options stand.
    const socket = 'postgres://u@/cb?host=/run/postgresql&options=-c%20x%3D1';
    expect(withStartupOption(socket, option)).toEqual({ connectionString: socket });
  });
});

describe.runIf(TEST_ENGINE === 'postgres')('search statements in the plan cache (postgres)', () => {
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;
  beforeAll(async () => {
    target = await createPostgresDatabase(true);
    // One connection per handle: its prepared statements are the ones pg_prepared_statements lists.
    database = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 2 });
    const [seller] = await database.db
      .insert(users)
      .values({
        email: 'plans@campus.test',
        passwordHash: 'x',
        username: 'plans',
        firstName: 'Plan',
        lastName: 'Cache',
        groupmelink: 'https://groupme.com/plans',
      })
      .returning({ id: users.id });
    // 'calculus' in a third of the names, 'thermodynamics' in two of 3,000.
    const names = Array.from({ length: 3000 }, (_, i) =>
      i % 3 === 0 ? `Calculus ${i}` : i % 1500 === 1 ? `Thermodynamics ${i}` : `History ${i}`,
    );
    for (let i = 0; i < names.length; i += 500) {
      await database.db.insert(listings).values(
        names.slice(i, i + 500).map((name, j) => ({
          userId: seller!.id,
          name,
          isbn: (i + j) % 100 === 0 ? '9780306406157' : null,
          courseNumber: '101',
          condition: 'good' as const,
          regularPrice: 10,
        })),
      );
    }
    await database.db.execute(sql`ANALYZE listings`);
  });
  afterAll(async () => {
    await database?.close();
    await target?.drop();
  });

  const search = (query: Record<string, string>) =>
    searchListings(database, listingSearchSchema.parse(query));
  const plans = async (db: Db) =>
    (
      (await db.execute(
        sql`SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`,
      )) as unknown as {
        rows: { statement: string; generic_plans: string; custom_plans: string }[];
      }
    ).rows.map((r) => ({
      statement: r.statement,
      generic: Number(r.generic_plans),
      custom: Number(r.custom_plans),
    }));
  const planCacheMode = async (db: Db) =>
    (
      (await db.execute(sql`SHOW plan_cache_mode`)) as unknown as {
        rows: { plan_cache_mode: string }[];
      }
    ).rows[0]!.plan_cache_mode;

  it("starts each pool's connections in its plan mode: the first statements of a new connection, asked at once, all run in it", async () => {
    // A fresh handle: every statement below waits for a connection the pools open now.
    const fresh = await openDatabase({
      engine: 'postgres',
      url: target.url,
      poolSize: 3,
      migrate: false,
    });
    try {
      const modeAndSource = async (db: Db) =>
        (
          (await db.execute(
            sql`SELECT setting, source FROM pg_settings WHERE name = 'plan_cache_mode'`,
          )) as unknown as { rows: { setting: string; source: string }[] }
        ).rows[0];
      const asked = (db: Db) => Promise.all(Array.from({ length: 5 }, () => modeAndSource(db)));
      const [custom, generic, plain] = await Promise.all([
        asked(fresh.customPlanDb),
        asked(fresh.genericPlanDb),
        asked(fresh.db),
      ]);
      // 'client': sent with the connection's start, not SET by a statement run beside the caller's.
      for (const row of custom)
        expect(row).toEqual({ setting: 'force_custom_plan', source: 'client' });
      for (const row of generic)
        expect(row).toEqual({ setting: 'force_generic_plan', source: 'client' });
      for (const row of plain) expect(row).toEqual({ setting: 'auto', source: 'default' });
    } finally {
      await fresh.close();
    }
  });

  it('plans a rare term with its words every time; a common term, the unfiltered pages and an ISBN once', async () => {
    for (let i = 0; i < 8; i += 1) {
      expect((await search({})).listings).toHaveLength(9);
      expect((await search({ startIndex: String(900 + i * 9) })).listings).toHaveLength(9);
      expect((await search({ searchTerm: 'calculus' })).listings).toHaveLength(9);
      expect((await search({ searchTerm: 'thermodynamics' })).listings).toHaveLength(2);
      expect((await search({ searchTerm: '978-0-306-40615-7' })).listings).toHaveLength(9);
    }
    expect(await planCacheMode(database.customPlanDb)).toBe('force_custom_plan');
    expect(await planCacheMode(database.genericPlanDb)).toBe('force_generic_plan');
    expect(await planCacheMode(database.db)).toBe('auto');
    const terms = (await plans(database.customPlanDb)).filter((p) =>
      p.statement.includes('"name_words" &&'),
    );
    expect(terms.length).toBeGreaterThan(0);
    // A rare word: the GIN index, planned with the words every time (never one plan for all words).
    for (const statement of terms) expect(statement.generic).toBe(0);
    expect(terms.reduce((n, p) => n + p.custom, 0)).toBeGreaterThanOrEqual(8);
    // A word in a third of the names (the vocabulary's counts): the date index's walk, written so
    // that nothing else can serve it, planned once.
    const walks = (await plans(database.genericPlanDb)).filter((p) =>
      p.statement.includes('coalesce("listings"."name_words"'),
    );
    expect(walks.length).toBeGreaterThan(0);
    for (const statement of walks) expect(statement.custom).toBe(0);
    expect(walks.reduce((n, p) => n + p.generic, 0)).toBeGreaterThanOrEqual(8);
    expect(
      (await plans(database.customPlanDb)).some((p) => p.statement.includes('coalesce(')),
    ).toBe(false);
    // Plans the values do not change: made once, then reused.
    const fixed = await plans(database.genericPlanDb);
    const unfiltered = fixed.filter((p) =>
      /where "listings"\."status" = 'active' order by/.test(p.statement),
    );
    const laterPage = fixed.filter((p) => /offset \$\d+/.test(p.statement));
    const isbn = fixed.filter((p) => p.statement.includes('"listings"."isbn" = $'));
    expect(unfiltered.some((p) => p.generic > 0)).toBe(true);
    expect(isbn.some((p) => p.generic > 0)).toBe(true);
    // A later page's OFFSET, unknown to a plan for any value, is estimated at a tenth of the rows:
    // PostgreSQL's default mode then finds a custom plan cheaper and plans every page again.
    expect(laterPage.length).toBeGreaterThan(0);
    for (const statement of laterPage) expect(statement.custom).toBe(0);
    expect(laterPage.reduce((n, p) => n + p.generic, 0)).toBe(8);
  });
});
