/**
 * The tables of the server's own machinery, shared by every app server: rate limits, background
 * jobs, upload leases, the catalogue's version and the searches that found nothing.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './schema';

/**
 * Attempt counters of every rate limit (plugins/rate-limit.ts), shared by all app servers: one row per
 * rule and key, a fixed window starting at `window_start` (ms since the epoch). UNLOGGED in the
 * migration (0007): a crash may reset the counters, nothing else.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('rate_limits_expires_at_idx').on(t.expiresAt)],
);

/**
 * Background jobs (src/jobs/jobs.ts, migration 0008): one-off jobs and recurring schedules that any
 * app server may claim; `lockedUntil` is the claimer's lease, `lockedBy` the claim's token.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    key: text('key').unique(),
    payload: jsonb('payload').notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    /** Set for a recurring schedule: the next slot follows the previous one by this much. */
    intervalMs: integer('interval_ms'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: uuid('locked_by'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`${t.failedAt} IS NULL`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;

/** Leases of tus uploads, so one app server at a time writes an upload (upload-locker.ts). */
export const uploadLocks = pgTable('upload_locks', {
  uploadId: text('upload_id').primaryKey(),
  holder: uuid('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * One row: the catalogue's version, bumped by a trigger in every statement that writes listings
 * (migration 0008). Caches of search answers are valid for one version (features/search/listing-caches.ts).
 */
export const catalogueVersion = pgTable(
  'catalogue_version',
  {
    id: integer('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    /**
     * Moved with `version` by every statement that may take a listing out of a search (an update,
     * a delete, a truncate), not by an insert: a total counted up to its cap stays true while it
     * stands (migration 0032, features/search/search-listings.ts).
     */
    shrinkVersion: bigint('shrink_version', { mode: 'number' }).notNull().default(0),
    /**
     * Moved by every statement that adds a word to the search's vocabulary (`listing_words`) or
     * takes one out of it: what a term resolves to stays true while it stands (migration 0033,
     * features/search/terms.ts).
     */
    wordsVersion: bigint('words_version', { mode: 'number' }).notNull().default(0),
  },
  () => [check('catalogue_version_one_row', sql`id = 1`)],
);

/**
 * Searches that found nothing (features/statistics, migration 0016): per day and normalised term, a
 * count, never who searched. Written in batches (plugins/search-misses.ts), pruned by the retention
 * job.
 */
export const searchMisses = pgTable(
  'search_misses',
  {
    day: date('day', { mode: 'string' }).notNull(),
    term: text('term').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.term] })],
);
