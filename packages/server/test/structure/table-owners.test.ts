import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/database';
import { rowsOf } from '../../src/db/rows';
import { openTestDatabase } from '../helpers';
import { isTestFile, readSource, sourceFiles } from './source-files';

/**
 * Which file writes (INSERT, UPDATE, DELETE) each table: its one repository, through which every
 * other writer goes (docs/ARCHITECTURE.md, "Table owners"). Reads are free.
 */
const OWNERS: Record<string, string> = {
  alert_deliveries: 'features/alerts/alert-deliveries.repository.ts',
  alerts: 'features/alerts/alerts.repository.ts',
  books: 'features/books/books.repository.ts',
  conversation_events: 'features/conversations/conversations.repository.ts',
  conversation_reports: 'features/conversations/conversation-reports.repository.ts',
  conversations: 'features/conversations/conversations.repository.ts',
  email_tokens: 'features/accounts/email-tokens.repository.ts',
  exchanges: 'features/ratings/ratings.repository.ts',
  images: 'features/images/images.repository.ts',
  jobs: 'jobs/job-statements.ts',
  listing_drafts: 'features/shelf/drafts.repository.ts',
  listing_reports: 'features/moderation/moderation.repository.ts',
  listings: 'features/listings/listings.repository.ts',
  meetups: 'features/meetups/meetups.repository.ts',
  moderation_log: 'features/moderation/moderation.repository.ts',
  offers: 'features/conversations/offers.repository.ts',
  offer_listings: 'features/conversations/offers.repository.ts',
  push_subscriptions: 'features/push/push.repository.ts',
  notification_settings: 'features/notifications/notifications.repository.ts',
  held_notifications: 'features/notifications/notifications.repository.ts',
  rate_limits: 'plugins/limit-store.ts',
  rating_reports: 'features/ratings/ratings.repository.ts',
  ratings: 'features/ratings/ratings.repository.ts',
  required_books: 'features/courses/required-books.repository.ts',
  saved_listings: 'features/saved/saved.repository.ts',
  search_misses: 'plugins/search-misses.ts',
  sessions: 'db/sessions.repository.ts',
  sso_identities: 'features/sso/sso.repository.ts',
  sso_once: 'features/sso/sso.repository.ts',
  term_end_mail_subscribers: 'features/shelf/term-end.repository.ts',
  term_end_mails_sent: 'features/shelf/term-end.repository.ts',
  upload_locks: 'features/uploads/upload-locker.ts',
  user_blocks: 'features/conversations/blocks.repository.ts',
  user_courses: 'features/my-courses/my-courses.repository.ts',
  users: 'features/accounts/users.repository.ts',
};

/**
 * An owner's writes split off by responsibility into a file beside it, and the table they write
 * (still one owner: the feature's repository files, named here, not any file of the feature).
 */
const OWNER_PARTS: Record<string, string> = {
  'features/listings/listing-moderation.repository.ts': 'listings',
};

/**
 * The writes the database's own functions make, by function: the tables each writes and the module
 * that defines it (generates its SQL, or the migration that wrote it). A trigger writes past a
 * table's owner on purpose (every path that changes a listing or adds an event must cause it), so
 * each is named here; the test reads every function the migrated database holds (pg_proc) and fails
 * on a write named nowhere. A module named here may write those tables in its source too.
 */
const TRIGGER_WRITES: Record<string, { module: string; tables: string[] }> = {
  catalogue_version_bump: {
    module: 'db/migrations/0008_jobs-locks-and-notifications.sql',
    tables: ['catalogue_version'],
  },
  conversation_event_commit: {
    module: 'db/migrations/0017_conversations.sql',
    tables: ['conversation_events'],
  },
  conversation_event_written: { module: 'deal/deal-triggers.ts', tables: ['conversations'] },
  listing_words_track: {
    module: 'db/migrations/0033_catalogue-words-version.sql',
    tables: ['listing_words', 'catalogue_version'],
  },
  listings_conversation_lines: { module: 'deal/deal-triggers.ts', tables: ['conversation_events'] },
  // The job's row is the job runner's (jobs/job-statements.ts enqueueInTriggerSql writes it).
  push_alert_match: { module: 'db/migrations/0023_push-subscriptions.sql', tables: ['jobs'] },
  push_conversation_event: { module: 'deal/deal-triggers.ts', tables: ['jobs'] },
  record_exchange: { module: 'deal/deal-triggers.ts', tables: ['exchanges'] },
};

/** The module declared to write `table` from inside the database (a trigger it defines). */
const writesByTrigger = (table: string, file: string) =>
  Object.values(TRIGGER_WRITES).some(
    ({ module, tables }) => module === file && tables.includes(table),
  );

/**
 * Not checked: the schema, migrations and the listing JSON trigger (db/ defines tables), and the
 * operator's commands (ops/: restore and the demo write every table on purpose).
 */
const isExempt = (file: string) =>
  /^db\/(?!sessions\.repository)/.test(file) || file.startsWith('ops/');

/** The tables' SQL names by their schema identifiers (`export const x = pgTable('x_y'`). */
function tablesByIdentifier(files: string[]): Map<string, string> {
  const tables = new Map<string, string>();
  for (const file of files.filter((f) => /^packages\/server\/src\/db\/.*schema\.ts$/.test(f))) {
    for (const [, identifier, name] of readSource(file).matchAll(
      /export const (\w+) = pgTable\(\s*'(\w+)'/g,
    )) {
      tables.set(identifier!, name!);
    }
  }
  return tables;
}

/**
 * The tables a source writes: drizzle's insert/update/delete of a table, and raw SQL (a table name
 * schema-qualified or quoted too, as the triggers' bodies write them).
 */
function writesOf(source: string, tables: Map<string, string>): Set<string> {
  const written = new Set<string>();
  const names = new Set(tables.values());
  for (const [, identifier] of source.matchAll(/\.(?:insert|update|delete)\((\w+)\)/g)) {
    const table = tables.get(identifier!);
    if (table) written.add(table);
  }
  for (const [, target] of source.matchAll(
    /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?public"?\.)?"?(\$\{\w+\}|[a-z_]+)/g,
  )) {
    const table = target!.startsWith('${') ? tables.get(target!.slice(2, -1)) : target;
    if (table && names.has(table)) written.add(table);
  }
  return written;
}

describe('table owners', () => {
  const files = sourceFiles();
  const tables = tablesByIdentifier(files);
  const writers = files
    .filter((file) => file.startsWith('packages/server/src/') && !isTestFile(file))
    .map((file) => file.slice('packages/server/src/'.length))
    .filter((file) => !isExempt(file))
    .flatMap((file) =>
      [...writesOf(readSource(`packages/server/src/${file}`), tables)].map((table) => ({
        table,
        file,
      })),
    );

  it('name an owner for every table', () => {
    const unowned = [...tables.values()].filter(
      (table) => !(table in OWNERS) && table !== 'listing_words' && table !== 'catalogue_version',
    );
    expect(unowned).toEqual([]);
    // The check sees the owners' own writes: it reads what it should.
    expect(writers).toContainEqual({ table: 'listings', file: OWNERS.listings });
  });

  it('are the only writers of their tables', () => {
    const outside = writers
      .filter(
        ({ table, file }) =>
          OWNERS[table] !== file && OWNER_PARTS[file] !== table && !writesByTrigger(table, file),
      )
      .map(({ table, file }) => `${table} ${file}`)
      .sort();
    expect(outside).toEqual([]);
  });

  it('finds drizzle and raw SQL writes', () => {
    const known = new Map([['listings', 'listings']]);
    expect([...writesOf('db.update(listings).set({})', known)]).toEqual(['listings']);
    expect([...writesOf('sql`DELETE FROM ${listings} WHERE`', known)]).toEqual(['listings']);
    expect([...writesOf('sql`INSERT INTO listings (id)`', known)]).toEqual(['listings']);
    expect([...writesOf('db.select().from(listings)', known)]).toEqual([]);
    expect([...writesOf('INSERT INTO public.listings (id)', known)]).toEqual(['listings']);
    expect([...writesOf('UPDATE "listings" SET', known)]).toEqual(['listings']);
  });
});

describe("table owners, the database's trigger functions included", () => {
  const tables = tablesByIdentifier(sourceFiles());
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** Each function of the migrated database (at start: the migrations, then the generated ones). */
  const installedFunctions = () =>
    rowsOf<{ name: string; body: string }>(
      database.db,
      sql`SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p
          JOIN pg_language l ON l.oid = p.prolang
          WHERE p.pronamespace = 'public'::regnamespace AND l.lanname IN ('plpgsql', 'sql')
          ORDER BY p.proname`,
    );

  it('name every table a trigger function writes, and its module', async () => {
    const written = Object.fromEntries(
      (await installedFunctions()).flatMap(({ name, body }) => {
        const writes = [...writesOf(body, tables)].sort();
        return writes.length > 0 ? [[name, writes]] : [];
      }),
    );
    const declared = Object.fromEntries(
      Object.entries(TRIGGER_WRITES).map(([name, { tables: writes }]) => [
        name,
        [...writes].sort(),
      ]),
    );
    expect(written).toEqual(declared);
  });

  it('name modules that define those functions', () => {
    for (const [name, { module }] of Object.entries(TRIGGER_WRITES)) {
      expect(readSource(`packages/server/src/${module}`), `${name} in ${module}`).toMatch(
        new RegExp(`\\b${name}\\b`),
      );
    }
  });
});
