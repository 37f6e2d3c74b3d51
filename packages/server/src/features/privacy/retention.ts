import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { deleteExpiredSessions } from '../../db/sessions.repository';
import { deleteFailedJobsBefore } from '../../jobs/job-statements';
import type { Storage } from '../../lib/storage/storage';
import { deleteSearchMissesBefore } from '../../plugins/search-misses';
import { deleteSpentEmailTokens } from '../accounts/email-tokens.repository';
import { deleteExpiredExports } from './data-export';

const DAY_MS = 24 * 60 * 60_000;
export const RETENTION_JOB = 'privacy.retention';
const RETENTION_EVERY_MS = 6 * 60 * 60_000;
/** One-off jobs that failed for good are kept this long for inspection. */
export const FAILED_JOBS_DAYS = 30;

/** What the retention policy uses: the database, the file store and its periods. */
export interface RetentionDeps {
  db: Db;
  storage: Pick<Storage, 'list' | 'delete'>;
  config: Pick<Config, 'retention' | 'dataDir'>;
}

export interface RetentionReport {
  sessions: number;
  emailTokens: number;
  searchTerms: number;
  failedJobs: number;
  outboxFiles: number;
  exports: number;
}

/**
 * The retention policy (docs/operations.md, the /privacy page), applied at `now`: expired sessions,
 * used or expired verification and reset links, day counts of searches without a result older than
 * RETENTION_SEARCH_TERMS_DAYS, jobs given up more than 30 days ago, and mail copies in
 * DATA_DIR/outbox older than RETENTION_OUTBOX_DAYS, and data exports whose link expired. A deleted
 * account's rows are gone at once (ON DELETE CASCADE); its mail copies and its data export go with
 * the others, on their schedule.
 */
export async function applyRetention(
  { db, storage, config }: RetentionDeps,
  now: Date,
): Promise<RetentionReport> {
  const { outboxDays, searchTermsDays } = config.retention;
  const searchCutoff = new Date(now.getTime() - searchTermsDays * DAY_MS)
    .toISOString()
    .slice(0, 10);
  return {
    sessions: await deleteExpiredSessions(db, now),
    emailTokens: await deleteSpentEmailTokens(db, now),
    searchTerms: await deleteSearchMissesBefore(db, searchCutoff),
    failedJobs: await deleteFailedJobsBefore(
      db,
      new Date(now.getTime() - FAILED_JOBS_DAYS * DAY_MS),
    ),
    outboxFiles: await pruneOutbox(
      path.join(config.dataDir, 'outbox'),
      now.getTime() - outboxDays * DAY_MS,
    ),
    exports: await deleteExpiredExports(storage, now),
  };
}

/** Removes the outbox's files last written before `before` (ms); the number removed. */
async function pruneOutbox(dir: string, before: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no outbox (SMTP_URL set, or no mail yet)
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.mtimeMs >= before) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

/** Runs the retention policy every six hours, on one app server. */
export default fp(
  async function retentionPlugin(app: FastifyInstance) {
    app.jobs.register(
      RETENTION_JOB,
      async () => {
        // The real time, not the jobs' clock: sessions, links and outbox files carry real times
        // (and a test that moves the jobs' clock ahead keeps its sessions).
        const report = await applyRetention(
          { db: app.database.db, storage: app.storage, config: app.config },
          new Date(),
        );
        app.log.info(report, 'retention applied');
      },
      { every: RETENTION_EVERY_MS },
    );
  },
  { name: 'privacy-retention', dependencies: ['jobs'] },
);
