import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import type { ReportInput } from '@campus-books/common/moderation.schemas';
import { images, listings } from '../../db/schema';
import { moderationLog } from '../../db/moderation.schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { findSavedListings } from '../saved/saved.repository';

const MODERATOR = `evidence.moderator.${Date.now()}@example.edu`;
const DAY = 24 * 60 * 60_000;

/** Issue 26 items 3 and 4: a reported seller cannot erase the evidence; few accounts cannot hide. */
describe(`evidence kept and the hide policy (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let moderator: TestUser;
  let clock = new Date();
  const route = routeCaller(() => t);
  const report = (listingId: string, user: TestUser, reason: ReportInput['reason'] = 'other') =>
    route('POST /api/reports/:listingId', { as: user, params: { listingId }, body: { reason } });
  const listingAs = (id: string, user?: TestUser) =>
    route('GET /api/listing/get/:id', { as: user, params: { id } });
  const deleteListing = (id: string, user: TestUser) =>
    route('DELETE /api/listing/delete/:id', { as: user, params: { id } });
  const save = (id: string, user: TestUser) =>
    route('POST /api/saved/add/:id', { as: user, params: { id } });
  const remove = (listingId: string, reason: string) =>
    route('POST /api/moderation/listings/:listingId/remove', {
      as: moderator,
      params: { listingId },
      body: { reason },
    });
  const requestReview = (id: string, user: TestUser) =>
    route('POST /api/listing/request-review/:id', { as: user, params: { id } });
  const row = async (id: string) =>
    (await t.database.db.select().from(listings).where(eq(listings.id, id)))[0];
  /** A verified account created `days` before the clock. */
  const account = async (days: number) => {
    const user = await createUser(t);
    await t.database.db.execute(
      sql`UPDATE users SET created_at = ${new Date(clock.getTime() - days * DAY).toISOString()}::timestamptz WHERE id = ${user.id}`,
    );
    return user;
  };
  const queue = async () => dataOf(await route('GET /api/moderation/queue', { as: moderator }));

  beforeAll(async () => {
    t = await createTestApp(
      { ...GENEROUS_LIMITS, MODERATOR_EMAILS: MODERATOR, REPORT_HIDES_PER_DAY: '2' },
      { now: () => clock },
    );
    moderator = await createUser(t, { email: MODERATOR });
  });
  afterAll(() => t.close());

  it('keeps a reported listing its seller deletes for the moderators only; dismissing deletes it', async () => {
    const seller = await account(30);
    const saver = await account(30);
    const listing = await createListingAs(t, seller, { subject: 'CHEM', courseNumber: '141' });
    await save(listing._id, saver);
    expect((await report(listing._id, await account(30))).status).toBe(201);
    expect((await deleteListing(listing._id, seller)).status).toBe(200);
    // Gone for its seller and everyone else, on every route.
    for (const user of [seller, saver, undefined]) {
      expect((await listingAs(listing._id, user)).status).toBe(404);
    }
    expect((await deleteListing(listing._id, seller)).status).toBe(404);
    expect((await save(listing._id, saver)).status).toBe(404);
    expect((await findSavedListings(t.database.db, saver.id)).map((l) => l._id)).not.toContain(
      listing._id,
    );
    const mine = dataOf(
      await route('GET /api/user/listings/:id', { as: seller, params: { id: seller.id } }),
    );
    expect(mine.map((l) => l._id)).not.toContain(listing._id);
    const search = dataOf(await route('GET /api/listing/get', { query: { limit: 50 } }));
    expect(search.map((l) => l._id)).not.toContain(listing._id);
    const course = dataOf(await route('GET /api/course/:code', { params: { code: 'CHEM 141' } }));
    expect(course.books.flatMap((b) => b.listingIds)).not.toContain(listing._id);
    const chat = await route('POST /api/conversations', {
      as: await account(30),
      body: { listingId: listing._id, text: 'Still there?' },
    });
    expect(chat.status).toBe(404);
    // The moderators still have it, its reports and the audit line.
    expect((await listingAs(listing._id, moderator)).status).toBe(200);
    const item = (await queue()).find((q) => q.listing._id === listing._id);
    expect(item?.deletedBySellerAt).not.toBeNull();
    expect(item?.reports).toHaveLength(1);
    const log = dataOf(await route('GET /api/moderation/log', { as: moderator }));
    expect(log.find((l) => l.listingId === listing._id)).toMatchObject({
      action: 'seller-delete',
      reason: 'Deleted by the seller while reported',
    });
    // Dismissed: deleted for good, its images too.
    const dismissed = await route('POST /api/moderation/listings/:listingId/dismiss', {
      as: moderator,
      params: { listingId: listing._id },
    });
    expect(dismissed.status).toBe(200);
    expect(await row(listing._id)).toBeUndefined();
    expect(
      await t.database.db.select().from(images).where(eq(images.ownerId, seller.id)),
    ).toHaveLength(0);
    const lines = await t.database.db
      .select()
      .from(moderationLog)
      .where(eq(moderationLog.listingId, listing._id));
    expect(lines.map((l) => l.action).sort()).toEqual(['dismiss', 'seller-delete']);
  });

  it('keeps a reported listing for the moderators when its seller deletes their whole account', async () => {
    const seller = await account(30);
    const reported = await createListingAs(t, seller, { name: 'Reported before the account went' });
    const plain = await createListingAs(t, seller);
    await report(reported._id, await account(30));
    const deleted = await route('DELETE /api/user/delete/:id', {
      as: seller,
      params: { id: seller.id },
      body: { currentPassword: seller.password },
    });
    expect(deleted.status).toBe(200);
    // The unreported listing went with the account; the reported one stays, without a seller.
    expect(await row(plain._id)).toBeUndefined();
    const kept = await row(reported._id);
    expect(kept).toMatchObject({ userId: null, status: 'hidden' });
    expect(kept?.sellerDeletedAt).not.toBeNull();
    for (const user of [await account(30), undefined]) {
      expect((await listingAs(reported._id, user)).status).toBe(404);
    }
    const item = (await queue()).find((q) => q.listing._id === reported._id);
    expect(item).toMatchObject({ seller: null, reports: [expect.anything()] });
    expect(item?.deletedBySellerAt).not.toBeNull();
    const lines = await t.database.db
      .select()
      .from(moderationLog)
      .where(eq(moderationLog.listingId, reported._id));
    expect(lines).toMatchObject([
      { action: 'seller-delete', moderatorEmail: seller.email, userId: seller.id },
    ]);
    // The moderators decide: removing keeps it removed (no seller to mail), dismissing deletes it.
    expect((await remove(reported._id, 'Answer keys')).status).toBe(200);
    expect(await row(reported._id)).toMatchObject({ status: 'removed', userId: null });
  });

  it('keeps a removed one removed, and deletes a listing without reports at once', async () => {
    const seller = await account(30);
    const reported = await createListingAs(t, seller);
    await report(reported._id, await account(30));
    await deleteListing(reported._id, seller);
    expect((await remove(reported._id, 'Scam')).status).toBe(200);
    expect((await row(reported._id))?.status).toBe('removed');
    expect((await listingAs(reported._id, seller)).status).toBe(404);
    const plain = await createListingAs(t, seller);
    expect((await deleteListing(plain._id, seller)).status).toBe(200);
    expect(await row(plain._id)).toBeUndefined();
  });

  it('counts only old verified accounts toward the hide, mails at once, and takes a review request', async () => {
    const seller = await account(30);
    const listing = await createListingAs(t, seller);
    // Two fresh accounts and one old one: recorded, not hidden.
    for (const reporter of [await account(0), await account(1), await account(30)]) {
      expect((await report(listing._id, reporter, 'spam_or_scam')).status).toBe(201);
    }
    expect((await row(listing._id))?.status).toBe('active');
    const item = (await queue()).find((q) => q.listing._id === listing._id);
    expect(item?.reports.map((r) => r.countsTowardHide).sort()).toEqual([false, false, true]);
    // Two more old verified accounts: three that count hide it.
    for (const reporter of [await account(8), await account(30)]) {
      await report(listing._id, reporter, 'spam_or_scam');
    }
    expect((await row(listing._id))?.status).toBe('hidden');
    await expect.poll(async () => (await mailsTo(t, MODERATOR)).length).toBe(1);
    await expect.poll(async () => (await mailsTo(t, seller.email)).length).toBe(1);
    // The seller asks for a review: first in the queue, once.
    for (let i = 0; i < 2; i += 1) {
      expect((await requestReview(listing._id, seller)).status).toBe(200);
    }
    const first = (await row(listing._id))?.reviewRequestedAt;
    expect((await queue())[0]?.listing._id).toBe(listing._id);
    expect((await row(listing._id))?.reviewRequestedAt).toEqual(first);
    expect((await requestReview(listing._id, await account(30))).status).toBe(403);
  });

  it('counts at most REPORT_HIDES_PER_DAY reports of one student a day', async () => {
    const reporter = await account(30);
    const counted: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const listing = await createListingAs(t, await account(30));
      await report(listing._id, reporter);
      counted.push(listing._id);
    }
    const flags = async () => {
      const items = await queue();
      return counted.map(
        (id) => items.find((q) => q.listing._id === id)?.reports[0]?.countsTowardHide,
      );
    };
    expect(await flags()).toEqual([true, true, false]);
    clock = new Date(clock.getTime() + DAY + 60_000);
    const later = await createListingAs(t, await account(40));
    await report(later._id, reporter);
    const items = await queue();
    expect(items.find((q) => q.listing._id === later._id)?.reports[0]?.countsTowardHide).toBe(true);
  });
});
