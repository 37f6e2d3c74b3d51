import type { FastifyInstance } from 'fastify';
import { and, countDistinct, eq, isNull, sql } from 'drizzle-orm';
import type { ReportInput } from '@campus-books/common/moderation.schemas';
import { listingReports, listings, type UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { isListingId } from '../listings/listings.repository';
import { LISTING_NOT_FOUND } from '../listings/listings.service';
import { ALREADY_REPORTED, OWN_LISTING_REPORT } from './moderation.messages';

/**
 * Records a student's report; once REPORT_HIDE_THRESHOLD different students have open reports on
 * an active listing, it is hidden until a moderator looks. One transaction, serialised per listing
 * by an advisory lock (not a row lock on the listing: listing writers take the catalogue version
 * first, decision 006), so the report that reaches the threshold is the one that hides.
 */
export async function reportListing(
  app: FastifyInstance,
  reporter: UserRow,
  listingId: string,
  input: ReportInput,
): Promise<{ hidden: boolean }> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  return app.database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${listingId}, 16))`);
    const [listing] = await tx
      .select({ userId: listings.userId, status: listings.status })
      .from(listings)
      .where(eq(listings.id, listingId));
    if (!listing || listing.status === 'removed') throw notFound(LISTING_NOT_FOUND);
    if (listing.userId === reporter.id) throw forbidden(OWN_LISTING_REPORT);
    const [report] = await tx
      .insert(listingReports)
      .values({
        listingId,
        reporterId: reporter.id,
        reason: input.reason,
        note: input.note || null,
      })
      .onConflictDoNothing({ target: [listingReports.listingId, listingReports.reporterId] })
      .returning({ id: listingReports.id });
    if (!report) throw conflict(ALREADY_REPORTED);
    if (listing.status !== 'active') return { hidden: false };
    const [open] = await tx
      .select({ reporters: countDistinct(listingReports.reporterId) })
      .from(listingReports)
      .where(and(eq(listingReports.listingId, listingId), isNull(listingReports.resolvedAt)));
    if ((open?.reporters ?? 0) < app.config.trust.reportHideThreshold) return { hidden: false };
    await tx
      .update(listings)
      .set({ status: 'hidden', hiddenReason: 'reports' })
      .where(and(eq(listings.id, listingId), eq(listings.status, 'active')));
    return { hidden: true };
  });
}
