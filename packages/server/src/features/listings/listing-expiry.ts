import { formatDays } from '@campus-books/common/durations';
import { webPaths } from '@campus-books/common/paths';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { users } from '../../db/schema';
import type { Mail, Mailer } from '../../plugins/mail';
import { campusDateTime } from '../../jobs/zoned-time';
import { signListingLink, type ListingLinkAction } from './listing-links';
import {
  claimListingReminders,
  expireDueListingRows,
  type DueListing,
} from './listings.repository';

const DAY_MS = 24 * 60 * 60_000;
/** A reminder's (and an expiry mail's) links work this many days after it was sent. */
export const LINK_LIFETIME_DAYS = 14;
const LINK_LIFETIME_MS = LINK_LIFETIME_DAYS * DAY_MS;
/** How the mails state that lifetime: from the value the links are signed with. */
const LINK_LIFETIME_TEXT = formatDays(LINK_LIFETIME_DAYS);

/**
 * What the expiry job uses: the database, the mailer and log, the mails' settings (the links' base
 * and key, the campus's time zone), and the listing caches an expiry empties.
 */
export interface ListingExpiryDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  settings: { publicUrl: string; sessionSecret: string; timeZone: string };
  caches: { invalidate(): void };
}

/** The job's dependencies, from the app that runs it. */
export function listingExpiryDeps(app: FastifyInstance): ListingExpiryDeps {
  const { sessionSecret } = app.config;
  return {
    db: app.database.db,
    mailer: app.mailer,
    log: app.log,
    settings: {
      sessionSecret,
      // Read at each use: the campus's address and zone when the job runs as a campus (decision 024).
      get publicUrl() {
        return app.config.publicUrl;
      },
      get timeZone() {
        return app.config.alerts.timeZone;
      },
    },
    caches: app.listingCaches,
  };
}

/**
 * Active listings whose time is over become `expired` (out of search, kept for their owner), and
 * each seller gets one mail with a one-click relist link. The statement that expires a listing is
 * its claim: of two servers (or two runs) only the one whose UPDATE changed the row mails, so the
 * mail goes once. (As for reminders, a mail that fails after the claim is not sent again.)
 */
export async function expireDueListings(deps: ListingExpiryDeps, now: Date): Promise<number> {
  const expired = await expireDueListingRows(deps.db, now);
  const due = await withSellers(deps.db, expired);
  await mailSellers(deps, due, (listing) => expiredMail(deps.settings, listing, now));
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
 * Claims the listings due for a reminder `daysBefore` their expiry (listings.repository.ts marks
 * them reminded in the same statement), whichever server runs the job and however often. (A mail
 * that fails after its claim is not sent again: a lost reminder beats a repeated one.)
 */
async function claimReminders(db: Db, now: Date, daysBefore: 7 | 1): Promise<DueReminder[]> {
  const horizon = new Date(now.getTime() + daysBefore * DAY_MS);
  return withSellers(db, await claimListingReminders(db, now, horizon, daysBefore));
}

/** The sellers' addresses; listings of sellers deleted since are skipped (they went with them). */
async function withSellers(db: Db, claimed: DueListing[]): Promise<DueReminder[]> {
  if (claimed.length === 0) return [];
  const sellers = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(users.id, [
        ...new Set(claimed.flatMap((c) => (c.userId === null ? [] : [c.userId]))),
      ]),
    );
  const emailOf = new Map(sellers.map((s) => [s.id, s.email]));
  return claimed.flatMap((c) => {
    const email = c.userId === null ? undefined : emailOf.get(c.userId);
    return email ? [{ ...c, email }] : [];
  });
}

/** Mails each claimed listing's seller; a failed mail is logged, not retried (it was claimed). */
async function mailSellers(
  { mailer, log }: ListingExpiryDeps,
  due: DueReminder[],
  compose: (due: DueReminder) => Mail,
): Promise<void> {
  for (const one of due) {
    await mailer.send(compose(one)).catch((error: unknown) => {
      log.error({ err: error, listingId: one.id }, 'listing freshness mail failed');
    });
  }
}

const ACTION_LABELS: Record<ListingLinkAction, string> = {
  extend: 'Still available',
  sold: 'Sold',
  remove: 'Remove',
};

function reminderMail(settings: ListingExpiryDeps['settings'], reminder: DueReminder, now: Date) {
  // In the campus's time zone (CAMPUS_TIME_ZONE), not the server's or UTC.
  const expiresOn = campusDateTime(settings.timeZone, reminder.expiresAt);
  const validUntil = new Date(now.getTime() + LINK_LIFETIME_MS);
  const links = (['extend', 'sold', 'remove'] as const).map((action) => {
    const token = signListingLink(settings.sessionSecret, {
      listingId: reminder.id,
      action,
      validUntil,
      confirmedAt: reminder.confirmedAt,
    });
    return `${ACTION_LABELS[action]}: ${settings.publicUrl}${webPaths.listingLink.href(token)}`;
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
      `Each link opens a page where you confirm; each works once, for ${LINK_LIFETIME_TEXT}.`,
    ].join('\n'),
  };
}

/**
 * Sends the reminders due at `now`; the number sent. A reminder is due from its horizon (7 or 1 day
 * before expiry) until the expiry, so one missed while no server ran goes out late, at the next run.
 * When both are due (the week's one missed until the last day), only the one-day reminder goes.
 */
export async function sendExpiryReminders(deps: ListingExpiryDeps, now: Date): Promise<number> {
  const due = [
    ...(await claimReminders(deps.db, now, 1)),
    ...(await claimReminders(deps.db, now, 7)),
  ];
  await mailSellers(deps, due, (reminder) => reminderMail(deps.settings, reminder, now));
  return due.length;
}

/** The mail of a listing that just expired: one click (and a confirmation page) relists it. */
function expiredMail(settings: ListingExpiryDeps['settings'], listing: DueReminder, now: Date) {
  const token = signListingLink(settings.sessionSecret, {
    listingId: listing.id,
    action: 'extend',
    validUntil: new Date(now.getTime() + LINK_LIFETIME_MS),
    confirmedAt: listing.confirmedAt,
  });
  const base = settings.publicUrl;
  return {
    to: listing.email,
    subject: `Expired: "${listing.name}" - relist it in one click`,
    text: [
      `Your listing "${listing.name}" expired: buyers no longer find it in search.`,
      '',
      `Still have the book? Relist it in one click: ${base}${webPaths.listingLink.href(token)}`,
      '',
      `The link opens a page where you confirm; it works once, for ${LINK_LIFETIME_TEXT}.`,
      `Your listings: ${base}${webPaths.profile.href()}`,
    ].join('\n'),
  };
}

/** The recurring expiry job (every LISTING_EXPIRY_CHECK_MS, default 15 minutes, one server per slot): expire what is due, then remind. Safe to repeat (at least once). */
export async function runListingExpiry(deps: ListingExpiryDeps, now: Date): Promise<void> {
  const expired = await expireDueListings(deps, now);
  await sendExpiryReminders(deps, now);
  // On the embedded engine caches are emptied by this process's own writes only (search/listing-caches.ts).
  if (expired > 0) deps.caches.invalidate();
}

export default fp(
  async function listingExpiryPlugin(app: FastifyInstance) {
    const deps = listingExpiryDeps(app);
    app.jobs.register('listing-expiry', async ({ now }) => runListingExpiry(deps, now), {
      every: app.config.trust.expiryCheckMs,
    });
  },
  { name: 'listing-expiry', dependencies: ['jobs', 'listing-caches'] },
);
