import type { FastifyInstance } from 'fastify';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type {
  ModerationLogEntry,
  ModerationQueueItem,
} from '@campus-books/common/moderation.schemas';
import type { Db } from '../../db/database';
import { listingReports, listings, moderationLog, users, type UserRow } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { toListing } from '../listings/listing.serializer';
import { deleteSessionsOfUser } from '../../db/sessions.repository';
import { isListingId } from '../listings/listings.repository';
import {
  findUserEmail,
  suspendUserRow,
  unsuspendUserRow,
  userExists,
} from './moderation.repository';
import { LISTING_NOT_FOUND } from '../listings/listings.service';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Action = ModerationLogEntry['action'];

const NOTHING_TO_DISMISS = 'This listing has no open reports';
const ALREADY_REMOVED = 'This listing is already removed';
const USER_NOT_FOUND = 'User not found';

async function log(
  tx: Tx,
  moderator: UserRow,
  action: Action,
  target: { listingId?: string; userId?: string; reason?: string },
): Promise<void> {
  await tx.insert(moderationLog).values({
    moderatorId: moderator.id,
    moderatorEmail: moderator.email,
    action,
    listingId: target.listingId ?? null,
    userId: target.userId ?? null,
    reason: target.reason ?? null,
  });
}

/** Listings with open reports, oldest report first, with every open report's reason and note. */
export async function moderationQueue(app: FastifyInstance): Promise<ModerationQueueItem[]> {
  const { db } = app.database;
  const open = await db
    .select()
    .from(listingReports)
    .where(isNull(listingReports.resolvedAt))
    .orderBy(listingReports.createdAt)
    .limit(1000);
  if (open.length === 0) return [];
  const ids = [...new Set(open.map((r) => r.listingId))];
  const rows = await db
    .select({ listing: listings, seller: users })
    .from(listings)
    .innerJoin(users, eq(users.id, listings.userId))
    .where(inArray(listings.id, ids));
  const byId = new Map(rows.map((r) => [r.listing.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        listing: toListing(row.listing),
        seller: {
          _id: row.seller.id,
          username: row.seller.username,
          email: row.seller.email,
          suspended: row.seller.suspendedAt !== null,
        },
        reports: open
          .filter((r) => r.listingId === id)
          .map((r) => ({ reason: r.reason, note: r.note, createdAt: r.createdAt.toISOString() })),
      },
    ];
  });
}

/** The reports were unfounded: closed, and the listing back in search if they had hidden it. */
export async function dismissReports(
  app: FastifyInstance,
  moderator: UserRow,
  listingId: string,
): Promise<void> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  await app.database.db.transaction(async (tx) => {
    const closed = await tx
      .update(listingReports)
      .set({ resolvedAt: new Date() })
      .where(and(eq(listingReports.listingId, listingId), isNull(listingReports.resolvedAt)))
      .returning({ id: listingReports.id });
    if (closed.length === 0) throw conflict(NOTHING_TO_DISMISS);
    await tx
      .update(listings)
      .set({ status: 'active', hiddenReason: null })
      .where(
        and(
          eq(listings.id, listingId),
          eq(listings.status, 'hidden'),
          eq(listings.hiddenReason, 'reports'),
        ),
      );
    await log(tx, moderator, 'dismiss', { listingId });
  });
  app.listingCaches.invalidate();
}

/** Takes a listing down for good and tells its seller why. */
export async function removeListing(
  app: FastifyInstance,
  moderator: UserRow,
  listingId: string,
  reason: string,
): Promise<void> {
  if (!isListingId(listingId)) throw notFound(LISTING_NOT_FOUND);
  const removed = await app.database.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ status: listings.status })
      .from(listings)
      .where(eq(listings.id, listingId));
    if (!existing) throw notFound(LISTING_NOT_FOUND);
    const [row] = await tx
      .update(listings)
      .set({ status: 'removed', hiddenReason: null, updatedAt: new Date() })
      .where(and(eq(listings.id, listingId), inArray(listings.status, STILL_UP)))
      .returning({ name: listings.name, userId: listings.userId });
    if (!row) throw conflict(ALREADY_REMOVED);
    await tx
      .update(listingReports)
      .set({ resolvedAt: new Date() })
      .where(and(eq(listingReports.listingId, listingId), isNull(listingReports.resolvedAt)));
    await log(tx, moderator, 'remove', { listingId, userId: row.userId, reason });
    return { name: row.name, email: await findUserEmail(tx, row.userId) };
  });
  app.listingCaches.invalidate();
  if (removed.email) {
    app.mailer.sendInBackground({
      to: removed.email,
      subject: `Your listing "${removed.name}" was removed`,
      text: [
        `The campus moderators removed your listing "${removed.name}".`,
        '',
        `Why: ${reason}`,
        '',
        'If you think this is a mistake, reply to the moderators of your campus.',
      ].join('\n'),
    });
  }
}

const STILL_UP: (typeof listings.$inferSelect)['status'][] = [
  'active',
  'sold',
  'expired',
  'hidden',
];

/**
 * A suspended seller cannot sign in or list (their sessions end, sign-in answers 403) and their
 * active listings are hidden; unsuspending restores exactly those.
 */
export async function suspendUser(
  app: FastifyInstance,
  moderator: UserRow,
  userId: string,
  reason: string,
): Promise<void> {
  if (!isListingId(userId)) throw notFound(USER_NOT_FOUND);
  if (userId === moderator.id) throw badRequest('You cannot suspend yourself');
  await app.database.db.transaction(async (tx) => {
    if (!(await suspendUserRow(tx, userId)))
      throw (await userExists(tx, userId))
        ? conflict('Already suspended')
        : notFound(USER_NOT_FOUND);
    await tx
      .update(listings)
      .set({ status: 'hidden', hiddenReason: 'suspension' })
      .where(and(eq(listings.userId, userId), eq(listings.status, 'active')));
    await deleteSessionsOfUser(tx, userId);
    await log(tx, moderator, 'suspend', { userId, reason });
  });
  app.listingCaches.invalidate();
}

export async function unsuspendUser(
  app: FastifyInstance,
  moderator: UserRow,
  userId: string,
): Promise<void> {
  if (!isListingId(userId)) throw notFound(USER_NOT_FOUND);
  await app.database.db.transaction(async (tx) => {
    if (!(await unsuspendUserRow(tx, userId)))
      throw (await userExists(tx, userId)) ? conflict('Not suspended') : notFound(USER_NOT_FOUND);
    await tx
      .update(listings)
      .set({ status: 'active', hiddenReason: null })
      .where(
        and(
          eq(listings.userId, userId),
          eq(listings.status, 'hidden'),
          eq(listings.hiddenReason, 'suspension'),
        ),
      );
    await log(tx, moderator, 'unsuspend', { userId });
  });
  app.listingCaches.invalidate();
}

/** The audit log, newest first (read-only: no route changes it, and the table refuses changes). */
export async function moderationLogEntries(app: FastifyInstance): Promise<ModerationLogEntry[]> {
  const rows = await app.database.db
    .select()
    .from(moderationLog)
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
    .limit(500);
  return rows.map((r) => ({
    _id: r.id,
    moderatorEmail: r.moderatorEmail,
    action: r.action,
    listingId: r.listingId,
    userId: r.userId,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
  }));
}
