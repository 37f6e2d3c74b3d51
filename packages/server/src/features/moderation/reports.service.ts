import type { FastifyInstance } from 'fastify';
import { and, count, countDistinct, eq, gt, isNull, sql } from 'drizzle-orm';
import type { ReportInput } from '@campus-books/common/moderation.schemas';
import { webPaths } from '@campus-books/common/paths';
import type { Db } from '../../db/database';
import { listings, type UserRow } from '../../db/schema';
import { listingReports } from '../../db/moderation.schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { isListingId } from '../listings/listings.repository';
import {
  hideListingForReports,
  lockListingModeration,
} from '../listings/listing-moderation.repository';
import { LISTING_NOT_FOUND } from '../listings/listing-visibility';
import { findUserEmail, insertReport } from './moderation.repository';
import { ALREADY_REPORTED, OWN_LISTING_REPORT } from './moderation.messages';
import { moderatorsToMail } from './moderators';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Whether a new report of `reporter` counts toward the automatic hide (decision 016): a verified
 * account at least REPORT_MIN_ACCOUNT_AGE_DAYS old, with fewer than REPORT_HIDES_PER_DAY counting
 * reports in the last 24 hours. The caller holds the reporter's lock.
 */
async function countsTowardHide(
  app: FastifyInstance,
  tx: Db,
  reporter: UserRow,
  now: Date,
): Promise<boolean> {
  const { reportMinAccountAgeMs, reportHidesPerDay } = app.config.trust;
  if (reporter.emailVerifiedAt === null) return false;
  if (now.getTime() - reporter.createdAt.getTime() < reportMinAccountAgeMs) return false;
  const [today] = await tx
    .select({ n: count() })
    .from(listingReports)
    .where(
      and(
        eq(listingReports.reporterId, reporter.id),
        eq(listingReports.countsTowardHide, true),
        gt(listingReports.createdAt, new Date(now.getTime() - DAY_MS)),
      ),
    );
  return (today?.n ?? 0) < reportHidesPerDay;
}

/**
 * Records a student's report; once REPORT_HIDE_THRESHOLD different students have open reports that
 * count (decision 016) on an active listing, it is hidden until a moderator looks, and the
 * moderators and the seller are mailed. One transaction, serialised per reporter (their daily
 * number) and then per listing (lockListingModeration), so the report that reaches the threshold
 * is the one that hides.
 */
export async function reportListing(
  app: FastifyInstance,
  reporter: UserRow,
  listingId: string,
  input: ReportInput,
): Promise<{ hidden: boolean }> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  const now = app.jobs.now();
  const hidden = await app.database.db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`reporter:${reporter.id}`}, 16))`,
    );
    await lockListingModeration(tx, listingId);
    const [listing] = await tx
      .select({
        userId: listings.userId,
        name: listings.name,
        status: listings.status,
        sellerDeletedAt: listings.sellerDeletedAt,
      })
      .from(listings)
      .where(eq(listings.id, listingId));
    if (!listing || listing.status === 'removed' || listing.sellerDeletedAt !== null) {
      throw notFound(LISTING_NOT_FOUND);
    }
    if (listing.userId === reporter.id) throw forbidden(OWN_LISTING_REPORT);
    const counts = await countsTowardHide(app, tx, reporter, now);
    const isNew = await insertReport(tx, {
      listingId,
      reporterId: reporter.id,
      reason: input.reason,
      note: input.note || null,
      countsTowardHide: counts,
      createdAt: now,
    });
    if (!isNew) throw conflict(ALREADY_REPORTED);
    if (!counts || listing.status !== 'active') return undefined;
    const [open] = await tx
      .select({ reporters: countDistinct(listingReports.reporterId) })
      .from(listingReports)
      .where(
        and(
          eq(listingReports.listingId, listingId),
          isNull(listingReports.resolvedAt),
          eq(listingReports.countsTowardHide, true),
        ),
      );
    if ((open?.reporters ?? 0) < app.config.trust.reportHideThreshold) return undefined;
    await hideListingForReports(tx, listingId);
    const sellerEmail = listing.userId ? await findUserEmail(tx, listing.userId) : undefined;
    return { name: listing.name, sellerEmail };
  });
  if (!hidden) return { hidden: false };
  app.listingCaches.invalidate();
  await mailHidden(app, listingId, hidden.name, hidden.sellerEmail);
  return { hidden: true };
}

/** A listing hidden by reports: the moderators hear at once, the seller hears how to ask for a review. */
async function mailHidden(
  app: FastifyInstance,
  listingId: string,
  name: string,
  sellerEmail: string | undefined,
): Promise<void> {
  const base = app.config.publicUrl;
  for (const to of await moderatorsToMail(app)) {
    app.mailer.sendInBackground({
      to,
      subject: `Reports hid the listing "${name}"`,
      text: [
        `Reports from ${app.config.trust.reportHideThreshold} students hid the listing "${name}" from the campus.`,
        'It stays hidden until a moderator dismisses the reports or removes it.',
        '',
        `The moderation queue: ${base}${webPaths.moderation.href()}`,
      ].join('\n'),
    });
  }
  if (!sellerEmail) return;
  app.mailer.sendInBackground({
    to: sellerEmail,
    subject: `Your listing "${name}" is hidden until a moderator looks`,
    text: [
      `Students reported your listing "${name}", so it is hidden from the campus until a moderator looks at it.`,
      '',
      `If you think the reports are wrong, ask for a review on its page: ${base}${webPaths.listing.href(listingId)}`,
    ].join('\n'),
  });
}
