import { activeCampus } from '@campus-books/common/active-campus';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { webPaths } from '@campus-books/common/paths';
import {
  conversationEvents,
  conversationReports,
  conversations,
  offerListings,
  offers,
} from '../../db/conversations.schema';
import { images, listings, sessions, users } from '../../db/schema';
import { alertDeliveries, alerts } from '../../db/alerts.schema';
import { heldNotifications, notificationSettings } from '../../db/notifications.schema';
import { pushSubscriptions } from '../../db/push.schema';
import { userCourses } from '../../db/courses.schema';
import { listingDrafts, termEndMailSubscribers } from '../../db/shelf.schema';
import { listingReports } from '../../db/moderation.schema';
import { savedListings } from '../../db/saved.schema';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { participantRole, revealedSoldBefore } from '../../deal/deal';
import { isPartySql, isRevealedSql, roleOfSql } from '../../deal/deal.sql';
import { readSignedToken, signToken } from '../../lib/signed-token';
import { deletePrefix, type Storage } from '../../lib/storage/storage';
import { ArchiveWriter } from '../../ops/archive-writer';
import { EXPORT_LINK_DAYS } from '@campus-books/common/privacy';

export const DATA_EXPORT_JOB = 'privacy.data-export';
/** How long the mailed download link works (and the archive is kept). */

export const exportFolder = (userId: string) => `exports/${userId}/`;
/** The link's expiry is in the key, so the retention job can tell old archives without a table. */
const exportKey = (userId: string, exportId: string, expires: number) =>
  `${exportFolder(userId)}${expires}-${exportId}.tar`;

interface TokenBody {
  /** The student. */
  u: string;
  /** The archive. */
  e: string;
  /** Expiry, in seconds since the epoch. */
  x: number;
}

const LABEL = 'data-export';

export function signExportToken(secret: string, body: TokenBody): string {
  return signToken(secret, LABEL, body);
}

/** The archive a link names and its owner; null when forged, malformed or expired. */
export function readExportToken(
  secret: string,
  token: string,
  now: Date,
): { userId: string; exportId: string; expires: number } | null {
  const body = readSignedToken(secret, LABEL, token) as TokenBody | null;
  if (!body) return null;
  if (typeof body.x !== 'number' || body.x * 1000 <= now.getTime()) return null;
  if (typeof body.u !== 'string' || typeof body.e !== 'string') return null;
  if (!/^[0-9a-f-]{36}$/.test(body.u) || !/^[0-9a-f-]{36}$/.test(body.e)) return null;
  return { userId: body.u, exportId: body.e, expires: body.x };
}

/** Some columns of a table, selected under their own names. */
function columnsOf<T extends PgTable, K extends keyof T['_']['columns'] & string>(
  table: T,
  names: readonly K[],
): Pick<T['_']['columns'], K> {
  const all = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Pick<T['_']['columns'], K>;
}

/**
 * Everything the product holds about one student, as one JSON document: the account (without the
 * password hash), listings, alerts, saved listings, reports sent (of listings and conversations),
 * alert notifications, sessions, the devices with notifications on (which push service, not the
 * endpoint: a device's address there),
 * their conversations (which listing, their role), the messages (with the ids of the photos they
 * carry) and offers they wrote (with the books of an offer for several), and the list of their photos, those sent in messages included (the
 * archive holds each photo's full-size file). What the other side of a
 * conversation wrote is that student's, not in here. Ratings: those the student gave, and those they
 * received once revealed (both rated, or RATING_REVEAL_DAYS after the sale), with their exchanges.
 * The semester view: their courses this term, their drafts (Sell my shelf) and whether they asked for
 * the end-of-term mail.
 */
export async function collectStudentData(
  { db, now, revealMs }: { db: Db; now: () => Date; revealMs: number },
  userId: string,
) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const { passwordHash: _secret, ...account } = user;
  const revealedBefore = revealedSoldBefore(now(), revealMs);
  /** The rows of a table whose `owner` column is the student, with the columns named. */
  const ownRows = <T extends PgTable, K extends keyof T['_']['columns'] & string>(
    table: T,
    owner: PgColumn,
    names: readonly K[],
  ) =>
    db
      .select(columnsOf(table, names))
      .from(table as PgTable)
      .where(eq(owner, userId));
  const ownListings = (await db.select().from(listings).where(eq(listings.userId, userId))).map(
    ({ listingJson: _json, nameWords: _words, ...row }) => row,
  );
  const saved = await db
    .select({ listingId: savedListings.listingId, savedAt: savedListings.createdAt })
    .from(savedListings)
    .where(eq(savedListings.userId, userId));
  const photos = await db
    .select({
      id: images.id,
      status: images.status,
      width: images.width,
      height: images.height,
      createdAt: images.createdAt,
    })
    .from(images)
    .where(
      and(eq(images.ownerId, userId), inArray(images.status, ['ready', 'attached', 'in_message'])),
    );
  return {
    format: 'campus-books-data-export/1',
    account,
    listings: ownListings,
    alerts: await db.select().from(alerts).where(eq(alerts.userId, userId)),
    myCourses: await db
      .select({
        subject: userCourses.subject,
        courseNumber: userCourses.courseNumber,
        addedAt: userCourses.createdAt,
      })
      .from(userCourses)
      .where(eq(userCourses.userId, userId)),
    drafts: await ownRows(listingDrafts, listingDrafts.userId, [
      'id',
      'fields',
      'imageUrls',
      'createdAt',
      'updatedAt',
    ]),
    termEndMail:
      (
        await db
          .select({ since: termEndMailSubscribers.createdAt })
          .from(termEndMailSubscribers)
          .where(eq(termEndMailSubscribers.userId, userId))
      )[0] ?? null,
    savedListings: saved,
    notificationChoices:
      (
        await ownRows(notificationSettings, notificationSettings.userId, [
          'choices',
          'quietStart',
          'quietEnd',
          'updatedAt',
        ])
      )[0] ?? null,
    notificationsHeldForQuietHours: await ownRows(heldNotifications, heldNotifications.userId, [
      'kind',
      'channel',
      'title',
      'createdAt',
    ]),
    reportsSent: await ownRows(listingReports, listingReports.reporterId, [
      'listingId',
      'reason',
      'note',
      'createdAt',
    ]),
    conversationReportsSent: await ownRows(conversationReports, conversationReports.reporterId, [
      'conversationId',
      'reason',
      'note',
      'createdAt',
    ]),
    alertNotifications: await ownRows(alertDeliveries, alertDeliveries.userId, [
      'listingId',
      'alertId',
      'event',
      'sentAt',
      'createdAt',
    ]),
    sessions: await ownRows(sessions, sessions.userId, ['createdAt', 'expiresAt']),
    pushDevices: (
      await ownRows(pushSubscriptions, pushSubscriptions.userId, [
        'endpoint',
        'alerts',
        'createdAt',
        'updatedAt',
      ])
    ).map(({ endpoint, ...device }) => ({ pushService: new URL(endpoint).host, ...device })),
    conversations: (
      await db
        .select({
          id: conversations.id,
          listingId: conversations.listingId,
          listingName: conversations.listingName,
          sellerId: conversations.sellerId,
          buyerId: conversations.buyerId,
          createdAt: conversations.createdAt,
          lastEventAt: conversations.lastEventAt,
        })
        .from(conversations)
        .where(isPartySql('conversations', userId))
    ).map(({ sellerId, buyerId, ...conversation }) => ({
      ...conversation,
      role: participantRole(userId, { sellerId, buyerId }),
    })),
    messages: await ownRows(conversationEvents, conversationEvents.senderId, [
      'conversationId',
      'kind',
      'body',
      'amount',
      'photoIds',
      'createdAt',
    ]),
    offers: await ownRows(offers, offers.fromId, [
      'id',
      'conversationId',
      'amount',
      'status',
      'createdAt',
      'decidedAt',
    ]),
    // The books of their offers for several (the conversation's listing first).
    offerBooks: await db
      .select({ offerId: offerListings.offerId, listingId: offerListings.listingId })
      .from(offerListings)
      .innerJoin(offers, eq(offers.id, offerListings.offerId))
      .where(eq(offers.fromId, userId))
      .orderBy(offerListings.offerId, offerListings.position),
    photos: photos.map((photo) => ({ ...photo, file: `photos/${photo.id}.webp` })),
    exchanges: await rowsOf(
      db,
      sql`SELECT id, listing_id AS "listingId", listing_name AS "listingName",
            ${roleOfSql('exchanges', userId)} AS role, sold_at AS "soldAt"
          FROM exchanges WHERE ${isPartySql('exchanges', userId)} ORDER BY sold_at`,
    ),
    ratings: {
      given: await rowsOf(
        db,
        sql`SELECT exchange_id AS "exchangeId", rater_role AS "role", positive, tags, comment,
              created_at AS "createdAt", removed_at AS "removedAt"
            FROM ratings WHERE rater_id = ${userId} ORDER BY created_at`,
      ),
      received: await rowsOf(
        db,
        sql`SELECT r.exchange_id AS "exchangeId", r.rater_role AS "raterRole", r.positive, r.tags,
              r.comment, r.created_at AS "createdAt", r.removed_at AS "removedAt"
            FROM ratings r JOIN exchanges e ON e.id = r.exchange_id
            WHERE r.ratee_id = ${userId}
              AND ${isRevealedSql('e', revealedBefore)}
            ORDER BY r.created_at`,
      ),
    },
  };
}

/**
 * The export job: the student's data.json and photos in one tar archive in the store (the previous
 * one replaced), and a mail with a signed link that works for EXPORT_LINK_DAYS.
 */
export async function prepareDataExport(
  app: FastifyInstance,
  userId: string,
  now: Date,
): Promise<void> {
  const data = await collectStudentData(
    { db: app.database.db, now: () => app.jobs.now(), revealMs: app.config.ratings.revealMs },
    userId,
  );
  if (!data) return; // the account was deleted meanwhile
  const exportedAt = now.toISOString();
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const archive = new ArchiveWriter(output);
  await archive.add(
    'campus-books-data/data.json',
    Buffer.from(`${JSON.stringify({ exportedAt, ...data }, null, 2)}\n`),
  );
  for (const photo of data.photos) {
    const bytes = await app.storage.get(`images/${photo.id}/full.webp`);
    if (bytes) await archive.add(`campus-books-data/${photo.file}`, bytes);
  }
  await archive.finish();

  const exportId = randomUUID();
  const expires = Math.floor(now.getTime() / 1000) + EXPORT_LINK_DAYS * 86_400;
  await deletePrefix(app.storage, exportFolder(userId));
  await app.storage.put(
    exportKey(userId, exportId, expires),
    Buffer.concat(chunks),
    'application/x-tar',
  );
  const token = signExportToken(app.config.sessionSecret, { u: userId, e: exportId, x: expires });
  const link = `${app.config.publicUrl}/api/data-export/download?token=${encodeURIComponent(token)}`;
  const profile = `${app.config.publicUrl}${webPaths.profile.href()}`;
  await app.mailer.send({
    to: data.account.email,
    subject: `Your ${activeCampus().productName} data is ready`,
    text:
      `The copy of your data you asked for is ready: one JSON file and your photos, in a tar archive.\n\n` +
      `Download it (signed in as yourself) within ${EXPORT_LINK_DAYS} days:\n${link}\n\n` +
      `You did not ask for it? Change your password in your profile: ${profile}\n`,
  });
}

/** The archive a valid link names, or null (replaced by a newer one, or deleted). */
export function readExport(
  storage: Pick<Storage, 'get'>,
  link: { userId: string; exportId: string; expires: number },
) {
  return storage.get(exportKey(link.userId, link.exportId, link.expires));
}

/** Deletes the archives whose link has expired (the retention job); the number deleted. */
export async function deleteExpiredExports(
  storage: Pick<Storage, 'list' | 'delete'>,
  now: Date,
): Promise<number> {
  let deleted = 0;
  for (const { key } of await storage.list('exports/')) {
    const expires = Number(/\/(\d+)-[0-9a-f-]+\.tar$/.exec(key)?.[1] ?? 0);
    if (expires * 1000 > now.getTime()) continue;
    await storage.delete(key);
    deleted += 1;
  }
  return deleted;
}
