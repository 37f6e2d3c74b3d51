import { webPaths } from '@campus-books/common/paths';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { listings, users } from '../../db/schema';
import { signListingLink, type ListingLinkAction } from './listing-links';

const DAY_MS = 24 * 60 * 60_000;
/** A reminder's links work this long after it was sent. */
export const LINK_LIFETIME_MS = 14 * DAY_MS;
/** A term end closer than this is skipped: a listing made the week before gets the next term. */
const TERM_END_MARGIN_MS = 7 * DAY_MS;

/**
 * When a listing confirmed at `now` expires: the next end of term (when the campus names them, at
 * least a week away), else LISTING_LIFETIME_DAYS from now.
 */
export function expiryFrom(app: FastifyInstance, now: Date): Date {
  const { termEnds, listingLifetimeDays } = app.config.trust;
  const termEnd = termEnds.find((end) => end.getTime() - now.getTime() >= TERM_END_MARGIN_MS);
  return termEnd ?? new Date(now.getTime() + listingLifetimeDays * DAY_MS);
}

/** The freshness of a listing its seller confirms now (create, relist, "Still available"). */
export function freshListing(app: FastifyInstance): { expiresAt: Date; confirmedAt: Date } {
  const now = app.jobs.now();
  return { expiresAt: expiryFrom(app, now), confirmedAt: now };
}

/** Active listings whose time is over become `expired` (out of search, kept for their owner). */
export async function expireDueListings(app: FastifyInstance, now: Date): Promise<number> {
  const expired = await app.database.db
    .update(listings)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(listings.status, 'active'), lte(listings.expiresAt, now)))
    .returning({ id: listings.id });
  return expired.length;
}

interface DueReminder {
  id: string;
  name: string;
  expiresAt: Date;
  confirmedAt: Date;
  email: string;
}

/**
 * Claims the listings due for a reminder `daysBefore` their expiry and marks them reminded in the
 * same statement, so each reminder is claimed once, whichever server runs the job and however often.
 * (A mail that fails after its claim is not sent again: a lost reminder beats a repeated one.)
 */
async function claimReminders(
  app: FastifyInstance,
  now: Date,
  daysBefore: 7 | 1,
): Promise<DueReminder[]> {
  const horizon = new Date(now.getTime() + daysBefore * DAY_MS);
  const { db } = app.database;
  const due = and(
    eq(listings.status, 'active'),
    gt(listings.expiresAt, now),
    lte(listings.expiresAt, horizon),
    daysBefore === 7 ? isNull(listings.reminded7dAt) : isNull(listings.reminded1dAt),
  );
  // The one-day reminder stands for the week's one when both are due.
  const set =
    daysBefore === 7
      ? { reminded7dAt: now }
      : { reminded1dAt: now, reminded7dAt: sql`coalesce(${listings.reminded7dAt}, ${now})` };
  const claimed = await db.update(listings).set(set).where(due).returning({
    id: listings.id,
    name: listings.name,
    expiresAt: listings.expiresAt,
    confirmedAt: listings.confirmedAt,
    userId: listings.userId,
  });
  if (claimed.length === 0) return [];
  // Sellers deleted since are skipped: their listings went with them.
  const sellers = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [...new Set(claimed.map((c) => c.userId))]));
  const emailOf = new Map(sellers.map((s) => [s.id, s.email]));
  return claimed.flatMap((c) => {
    const email = emailOf.get(c.userId);
    return email ? [{ ...c, email }] : [];
  });
}

const ACTION_LABELS: Record<ListingLinkAction, string> = {
  extend: 'Still available',
  sold: 'Sold',
  remove: 'Remove',
};

function reminderMail(app: FastifyInstance, reminder: DueReminder, now: Date) {
  const expiresOn = reminder.expiresAt.toUTCString().slice(0, 16);
  const validUntil = new Date(now.getTime() + LINK_LIFETIME_MS);
  const links = (['extend', 'sold', 'remove'] as const).map((action) => {
    const token = signListingLink(app, {
      listingId: reminder.id,
      action,
      validUntil,
      confirmedAt: reminder.confirmedAt,
    });
    return `${ACTION_LABELS[action]}: ${app.config.publicUrl}${webPaths.listingLink.href(token)}`;
  });
  return {
    to: reminder.email,
    subject: `Is "${reminder.name}" still available?`,
    text: [
      `Your listing "${reminder.name}" leaves the marketplace on ${expiresOn}.`,
      '',
      'One click tells buyers where it stands:',
      ...links,
      '',
      'Each link opens a page where you confirm; they work once, until the next reminder.',
    ].join('\n'),
  };
}

/** Sends the reminders due at `now` (7 and 1 day before expiry); the number sent. */
export async function sendExpiryReminders(app: FastifyInstance, now: Date): Promise<number> {
  const due = [...(await claimReminders(app, now, 1)), ...(await claimReminders(app, now, 7))];
  for (const reminder of due) {
    await app.mailer.send(reminderMail(app, reminder, now)).catch((error: unknown) => {
      app.log.error({ err: error, listingId: reminder.id }, 'expiry reminder failed');
    });
  }
  return due.length;
}

/** The recurring expiry job (every LISTING_EXPIRY_CHECK_MS, default 15 minutes, one server per slot): expire what is due, then remind. Safe to repeat (at least once). */
export async function runListingExpiry(app: FastifyInstance, now: Date): Promise<void> {
  const expired = await expireDueListings(app, now);
  await sendExpiryReminders(app, now);
  // On the embedded engine caches are emptied by this process's own writes only (listings.cache.ts).
  if (expired > 0) app.listingCaches.invalidate();
}

export default fp(
  async function listingExpiryPlugin(app: FastifyInstance) {
    app.jobs.register('listing-expiry', async ({ now }) => runListingExpiry(app, now), {
      every: app.config.trust.expiryCheckMs,
    });
  },
  { name: 'listing-expiry', dependencies: ['jobs', 'listing-caches'] },
);
