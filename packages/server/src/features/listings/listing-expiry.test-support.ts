import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { listings } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import type { SentMail } from '../../../test/outbox';
import { GENEROUS_LIMITS } from '../../../test/accounts';

/** The set-up the expiry suite and the one-click links' suite share. */

export const DAY = 24 * 60 * 60_000;

/** What a mail says of its links' lifetime matches the time its links are signed for. */
export function expectLinkLifetimeStated(mail: SentMail, token: string, sentAt: Date) {
  const validUntilMs = Number(token.split('~')[2]) * 1000;
  const days = Math.round((validUntilMs - sentAt.getTime()) / DAY);
  expect(days).toBeGreaterThan(1);
  expect(mail.text).toContain(`works once, for ${days} days.`);
}

/** The token of one of a mail's links ("Still available", "Sold", "Remove", "one click"). */
export function linkOf(mail: SentMail, label: string): string {
  const match = new RegExp(`${label}: https?://\\S+/listing-link/(\\S+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no "${label}" link in: ${mail.text}`);
  return match[1];
}

export interface ExpirySuite {
  /** The suite's app, created by its beforeAll (listings live LISTING_LIFETIME_DAYS = 30 days). */
  app(): TestApp;
  /** The injected clock's time, which only `advance` moves. */
  clock(): Date;
  advance(ms: number): void;
  /** What the search answers signed out. */
  search(): Promise<{ _id: string }[]>;
  /** A listing's row as stored. */
  row(id: string): Promise<typeof listings.$inferSelect>;
  /** The due jobs run once, as a server's job runner would. */
  runJob(): Promise<void>;
}

/**
 * Called in a `describe`: its beforeAll makes an app on a clock of its own (test files share
 * modules, so the clock is the suite's, not this module's); its afterAll closes the app.
 */
export function expirySuite(): ExpirySuite {
  let clock = new Date('2027-01-10T12:00:00Z');
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { ...GENEROUS_LIMITS, LISTING_LIFETIME_DAYS: '30' },
      { now: () => clock },
    );
  });
  afterAll(async () => t.close());
  return {
    app: () => t,
    clock: () => clock,
    advance: (ms) => {
      clock = new Date(clock.getTime() + ms);
    },
    search: async () =>
      dataOf(await routeCaller(() => t)('GET /api/listing/get', { query: { limit: 50 } })),
    row: async (id) => (await t.database.db.select().from(listings).where(eq(listings.id, id)))[0]!,
    runJob: async () => {
      await t.app.jobs.runDue();
    },
  };
}
