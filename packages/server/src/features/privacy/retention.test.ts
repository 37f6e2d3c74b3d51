import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, sessions } from '../../db/schema';
import { jobs, searchMisses } from '../../db/platform.schema';
import { rowsOf } from '../../db/rows';
import { applyRetention } from './retention';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';

const DAY = 24 * 60 * 60_000;
/** Now: sessions made by the sign-in code, like the job, go by the real clock. */
const START = new Date();
const daysBefore = (days: number) => new Date(START.getTime() - days * DAY);
const dayBefore = (days: number) => daysBefore(days).toISOString().slice(0, 10);

describe(`the retention job (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let now = START;

  beforeAll(async () => {
    t = await createTestApp(
      { RETENTION_OUTBOX_DAYS: '10', RETENTION_SEARCH_TERMS_DAYS: '90' },
      { now: () => now },
    );
  });
  afterAll(async () => t.close());

  it('removes, on its schedule and by the injected clock, exactly what is past its time', async () => {
    const student = await createUser(t);
    const live = (await t.database.db.select().from(sessions)).map((s) => s.id);
    await t.database.db.insert(sessions).values([
      { userId: student.id, expiresAt: daysBefore(1) },
      { userId: student.id, expiresAt: new Date(START.getTime() + 2 * DAY) },
    ]);
    const token = (hash: string, expiresAt: Date, usedAt: Date | null = null) => ({
      tokenHash: hash,
      userId: student.id,
      purpose: 'verify_email' as const,
      expiresAt,
      usedAt,
    });
    await t.database.db
      .insert(emailTokens)
      .values([
        token('expired', daysBefore(1)),
        token('used', new Date(START.getTime() + 5 * DAY), daysBefore(2)),
        token('pending', new Date(START.getTime() + 5 * DAY)),
      ]);
    await t.database.db.insert(searchMisses).values([
      { day: dayBefore(91), term: 'old term', count: 3 },
      { day: dayBefore(89), term: 'recent term', count: 2 },
    ]);
    await t.database.db.insert(jobs).values([
      { name: 'gone', runAt: daysBefore(40), failedAt: daysBefore(40), lastError: 'x' },
      { name: 'kept', runAt: daysBefore(3), failedAt: daysBefore(3), lastError: 'x' },
    ]);
    const outbox = path.join(t.dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    for (const [name, age] of [
      ['old.eml', 20],
      ['fresh.eml', 2],
    ] as const) {
      writeFileSync(path.join(outbox, name), 'mail');
      utimesSync(path.join(outbox, name), daysBefore(age), daysBefore(age));
    }

    // Applied at an injected time six hours on.
    now = new Date(START.getTime() + 6 * 60 * 60_000);
    const report = await applyRetention(
      { db: t.app.database.db, storage: t.app.storage, config: t.app.config },
      now,
    );
    expect(report).toEqual({
      sessions: 1,
      emailTokens: 2,
      searchTerms: 1,
      failedJobs: 1,
      outboxFiles: 1,
      exports: 0,
    });

    const sessionsLeft = await t.database.db.select().from(sessions);
    expect(sessionsLeft).toHaveLength(live.length + 1);
    expect(sessionsLeft.every((s) => s.expiresAt > now)).toBe(true);
    const tokens = await t.database.db.select().from(emailTokens);
    expect(tokens.map((row) => row.tokenHash)).toEqual(['pending']);
    const terms = await t.database.db.select().from(searchMisses);
    expect(terms.map((row) => row.term)).toEqual(['recent term']);
    const failed = await rowsOf<{ name: string }>(
      t.database.db,
      sql`SELECT name FROM jobs WHERE failed_at IS NOT NULL ORDER BY name`,
    );
    expect(failed.map((row) => row.name)).toEqual(['kept']);
    expect(readdirSync(outbox)).toEqual(['fresh.eml']);
    // The signed-in student's live session still works.
    const session = await t.app.inject({
      url: '/api/auth/session',
      headers: { cookie: student.cookie },
    });
    expect(session.json().user?._id).toBe(student.id);
  });

  it('runs as a recurring job: nothing before its first slot, then once', async () => {
    const student = await createUser(t);
    await t.database.db.insert(sessions).values({ userId: student.id, expiresAt: daysBefore(1) });
    const expired = async () =>
      (await t.database.db.select().from(sessions)).filter((s) => s.expiresAt < START).length;
    now = START;
    await t.app.jobs.runDue();
    expect(await expired()).toBe(1);
    // The schedule's slot is six hours after the start, on the jobs' clock.
    now = new Date(START.getTime() + 6 * 60 * 60_000 + 1000);
    await t.app.jobs.runDue();
    expect(await expired()).toBe(0);
  });

  it('tells the privacy page the periods it applies', async () => {
    const res = await t.app.inject({ url: '/api/privacy' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      outboxDays: 10,
      searchTermsDays: 90,
      failedJobsDays: 30,
      attemptWindowMinutes: 60,
    });
  });
});
