import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser } from 'tar';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversationEvents,
  conversationReports,
  conversations,
  offers,
} from '../../db/conversations.schema';
import { notificationSettings } from '../../db/notifications.schema';
import { pushSubscriptions } from '../../db/push.schema';
import { userCourses } from '../../db/courses.schema';
import { listingDrafts, termEndMailSubscribers } from '../../db/shelf.schema';
import { sessions } from '../../db/schema';
import { alerts } from '../../db/alerts.schema';
import { listingReports } from '../../db/moderation.schema';
import { savedListings } from '../../db/saved.schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';
import { applyRetention } from './retention';

const DAY = 24 * 60 * 60_000;

/** The archive's entries, by path. */
async function untar(archive: Buffer): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => entries.set(entry.path, Buffer.concat(chunks)));
    },
  });
  await pipeline(Readable.from([archive]), parser);
  return entries;
}

describe(`"Download my data" (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let now = new Date();
  let student: TestUser;
  let other: TestUser;
  let photoId: string;
  let otherListing = '';

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => now });
    student = await createUser(t);
    other = await createUser(t);
    const photo = await createUploadedImage(t, student.id);
    photoId = photo.split('/').find((part) => /^[0-9a-f-]{36}$/.test(part))!;
    await insertListings(t, student.id, [{ name: 'My Organic Chemistry', imageUrls: [photo] }]);
    otherListing = (await insertListings(t, other.id, [{ name: 'Their Physics Book' }]))[0]!;
    await t.database.db.insert(alerts).values([
      { userId: student.id, searchTerm: 'linear algebra', termWords: ['linear', 'algebra'] },
      { userId: other.id, searchTerm: 'secret hobby', termWords: ['secret', 'hobby'] },
    ]);
    await t.database.db
      .insert(savedListings)
      .values({ userId: student.id, listingId: otherListing });
    await t.database.db
      .insert(listingReports)
      .values({ listingId: otherListing, reporterId: student.id, reason: 'other', note: 'Odd' });
    const [conversation] = await t.database.db
      .insert(conversations)
      .values({
        listingId: otherListing,
        listingName: 'Their Physics Book',
        sellerId: other.id,
        buyerId: student.id,
      })
      .returning();
    await t.database.db.insert(conversationEvents).values([
      {
        conversationId: conversation!.id,
        kind: 'message',
        senderId: student.id,
        body: 'Still there?',
      },
      {
        conversationId: conversation!.id,
        kind: 'message',
        senderId: other.id,
        body: 'Private reply',
      },
    ]);
    await t.database.db
      .insert(offers)
      .values({ conversationId: conversation!.id, fromId: student.id, amount: 15 });
    await t.database.db.insert(conversationReports).values({
      conversationId: conversation!.id,
      reporterId: student.id,
      reason: 'harassment',
      note: 'Rude replies',
    });
    await t.database.db.insert(userCourses).values([
      { userId: student.id, subject: 'ECON', courseNumber: '101' },
      { userId: other.id, subject: 'HIST', courseNumber: '999' },
    ]);
    await t.database.db.insert(listingDrafts).values([
      { id: randomUUID(), userId: student.id, fields: { name: 'Draft Of Mine' } },
      { id: randomUUID(), userId: other.id, fields: { name: 'Draft Of Theirs' } },
    ]);
    await t.database.db.insert(termEndMailSubscribers).values({ userId: student.id });
    await t.database.db.insert(notificationSettings).values([
      {
        userId: student.id,
        choices: { ratings: { mail: false } },
        quietStart: '22:00',
        quietEnd: '07:00',
      },
      { userId: other.id, choices: {}, quietStart: '21:00', quietEnd: '06:00' },
    ]);
    const sessionOf = async (userId: string) =>
      (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId)))[0]!.id;
    await t.database.db.insert(pushSubscriptions).values([
      {
        userId: student.id,
        sessionId: await sessionOf(student.id),
        endpoint: 'https://fcm.googleapis.com/fcm/send/export-test-device',
        p256dh: 'p256dh-of-the-test',
        auth: 'auth-of-the-test',
        alerts: true,
      },
      {
        userId: other.id,
        sessionId: await sessionOf(other.id),
        endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/others-device',
        p256dh: 'p256dh-of-the-other',
        auth: 'auth-of-the-other',
      },
    ]);
  });
  afterAll(async () => t.close());

  const download = (token: string, cookie?: string) =>
    t.app.inject({
      url: `/api/data-export/download?token=${encodeURIComponent(token)}`,
      headers: cookie ? { cookie } : {},
    });

  it('prepares one copy however often it is asked at once, and mails a signed link', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/data-export' })).statusCode).toBe(401);
    const asks = await Promise.all(
      Array.from({ length: 25 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/data-export',
          headers: { cookie: student.cookie },
        }),
      ),
    );
    expect(asks.map((r) => r.statusCode)).toEqual(Array(25).fill(202));
    await t.app.jobs.runDue();
    const mails = await mailsTo(t, student.email);
    const ready = mails.filter((m) => m.subject === 'Your Campus Books data is ready');
    expect(ready).toHaveLength(1);
  });

  it("holds every kind of record of the student, and nothing of another student's", async () => {
    const [mail] = (await mailsTo(t, student.email)).filter((m) =>
      m.subject.includes('data is ready'),
    );
    const token = new URL(
      /https?:\/\/\S+download\?token=\S+/.exec(mail!.text)![0],
    ).searchParams.get('token')!;
    const res = await download(token, student.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-tar');
    const entries = await untar(res.rawPayload);
    const json = entries.get('campus-books-data/data.json')!.toString();
    const data = JSON.parse(json);
    expect(data.account).toMatchObject({ id: student.id, email: student.email });
    expect(data.account.passwordHash).toBeUndefined();
    expect(json).not.toMatch(/argon2|password_hash|passwordHash/);
    expect(data.listings.map((l: { name: string }) => l.name)).toEqual(['My Organic Chemistry']);
    expect(data.alerts.map((a: { searchTerm: string }) => a.searchTerm)).toEqual([
      'linear algebra',
    ]);
    expect(data.savedListings).toEqual([expect.objectContaining({ listingId: otherListing })]);
    expect(data.reportsSent).toEqual([
      expect.objectContaining({ listingId: otherListing, reason: 'other', note: 'Odd' }),
    ]);
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    // Which push service, not the device's address there nor its keys; not the other's device.
    expect(data.pushDevices).toEqual([
      expect.objectContaining({ pushService: 'fcm.googleapis.com', alerts: true }),
    ]);
    expect(json).not.toMatch(/export-test-device|p256dh-of|auth-of|others-device|mozilla/);
    expect(data.photos).toEqual([expect.objectContaining({ id: photoId })]);
    expect(entries.get(`campus-books-data/photos/${photoId}.webp`)?.length).toBeGreaterThan(0);
    expect(data.conversationReportsSent).toEqual([
      expect.objectContaining({ reason: 'harassment', note: 'Rude replies' }),
    ]);
    expect(data.conversations).toEqual([
      expect.objectContaining({ listingName: 'Their Physics Book', role: 'buyer' }),
    ]);
    expect(data.messages).toEqual([
      expect.objectContaining({ kind: 'message', body: 'Still there?' }),
    ]);
    expect(data.offers).toEqual([expect.objectContaining({ amount: 15, status: 'open' })]);
    expect(data.ratings).toEqual({ given: [], received: [] });
    expect(data.myCourses).toEqual([
      expect.objectContaining({ subject: 'ECON', courseNumber: '101' }),
    ]);
    expect(data.drafts).toEqual([
      expect.objectContaining({ fields: { name: 'Draft Of Mine' }, imageUrls: [] }),
    ]);
    expect(data.termEndMail).toEqual({ since: expect.any(String) });
    expect(data.notificationChoices).toEqual({
      choices: { ratings: { mail: false } },
      quietStart: '22:00',
      quietEnd: '07:00',
      updatedAt: expect.any(String),
    });
    expect(data.notificationsHeldForQuietHours).toEqual([]);
    // Nothing of the other student: their id, address, alert, what they wrote.
    for (const secret of [
      other.id,
      other.email,
      'Private reply',
      'secret hobby',
      'Draft Of Theirs',
      'HIST',
    ]) {
      expect(json).not.toContain(secret);
    }

    // Only its owner, signed in, with the link as sent.
    expect((await download(token)).statusCode).toBe(401);
    const foreign = await download(token, other.cookie);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ success: false, statusCode: 403 });
    const [body, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), u: other.id }),
    ).toString('base64url');
    expect((await download(`${forged}.${signature}`, other.cookie)).statusCode).toBe(404);
    expect((await download('nonsense', student.cookie)).statusCode).toBe(404);

    // Past its seven days the link is refused, and the retention job deletes the archive.
    now = new Date(Date.now() + 8 * DAY);
    expect((await download(token, student.cookie)).statusCode).toBe(404);
    const report = await applyRetention(
      { db: t.app.database.db, storage: t.app.storage, config: t.app.config },
      now,
    );
    expect(report.exports).toBe(1);
    expect(await t.app.storage.list('exports/')).toEqual([]);
  });
});
