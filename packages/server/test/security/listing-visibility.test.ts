import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import type { Listing } from '@campus-books/common/listing.schemas';
import { findListingPageHead } from '../../src/features/listings/listing-page-meta';
import { findSavedListings } from '../../src/features/saved/saved.repository';
import { GENEROUS_LIMITS } from '../accounts';
import { routeCaller } from '../api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { mailsTo } from '../outbox';

const MODERATOR = `visibility.moderator.${Date.now()}@richmond.edu`;

/**
 * Issue 26, defect 2: a hidden or removed listing is "not found" for everyone but its seller and the
 * moderators on every route, page and mail that shows a listing, saved listings included.
 */
describe(`hidden and removed listings, through every route that shows a listing (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let moderator: TestUser;
  let seller: TestUser;
  let saver: TestUser;
  let stranger: TestUser;

  const route = routeCaller(() => t);
  const savedIds = async (user: TestUser) =>
    dataOf(await route('GET /api/saved/get', { as: user })).map((l) => l._id);
  const save = (id: string, user: TestUser) =>
    route('POST /api/saved/add/:id', { as: user, params: { id } });
  const unsave = (id: string, user: TestUser) =>
    route('DELETE /api/saved/remove/:id', { as: user, params: { id } });
  const report = (listingId: string, user: TestUser, reason: 'spam_or_scam' | 'other') =>
    route('POST /api/reports/:listingId', { as: user, params: { listingId }, body: { reason } });
  const listingAs = (id: string, user?: TestUser) =>
    route('GET /api/listing/get/:id', { as: user, params: { id } });

  /** A listing the saver saved, then hidden by one report (threshold 1) or removed by a moderator. */
  async function takenDown(how: 'hidden' | 'removed', name: string): Promise<Listing> {
    const listing = await createListingAs(t, seller, {
      name,
      subject: 'CHEM',
      courseNumber: '141',
    });
    expect((await save(listing._id, saver)).status).toBe(200);
    const res =
      how === 'hidden'
        ? await report(listing._id, await createUser(t), 'spam_or_scam')
        : await route('POST /api/moderation/listings/:listingId/remove', {
            as: moderator,
            params: { listingId: listing._id },
            body: { reason: 'Not a textbook' },
          });
    expect(res.status, res.ok ? '' : res.text).toBeLessThan(300);
    return listing;
  }

  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      REPORT_HIDE_THRESHOLD: '1',
      REPORT_MIN_ACCOUNT_AGE_DAYS: '0',
      MODERATOR_EMAILS: MODERATOR,
    });
    moderator = await createUser(t, { email: MODERATOR });
    seller = await createUser(t);
    saver = await createUser(t);
    stranger = await createUser(t);
  });
  afterAll(() => t.close());

  for (const how of ['hidden', 'removed'] as const) {
    it(`a ${how} listing leaves the saved lists and cannot be saved by id`, async () => {
      const listing = await takenDown(how, `Taken down ${how} chemistry`);
      // Saved earlier: no longer listed, neither by the API nor in the pages' first data.
      expect(await savedIds(saver)).not.toContain(listing._id);
      const rendered = await findSavedListings(t.database.db, saver.id);
      expect(rendered.map((l) => l._id)).not.toContain(listing._id);
      // Saved by id now: 404, exactly as an unknown id, and nothing written.
      for (const user of [stranger, moderator]) {
        const add = await save(listing._id, user);
        expect(add.status).toBe(404);
        expect(errorOf(add)).toEqual({
          success: false,
          statusCode: 404,
          message: 'Listing not found',
        });
        expect(await savedIds(user)).not.toContain(listing._id);
      }
      // Removing it: the saver may (it is theirs); anyone else hears 404 as for an unknown id.
      expect((await unsave(listing._id, stranger)).status).toBe(404);
      expect((await unsave(listing._id, saver)).status).toBe(200);
      // Its seller still sees it, saved or not (the seller and the moderators may read it).
      expect((await save(listing._id, seller)).status).toBe(200);
      expect(await savedIds(seller)).toContain(listing._id);
    });

    it(`a ${how} listing is not found through any other route that shows listings`, async () => {
      const name = `Vanished ${how} organic`;
      const listing = await takenDown(how, name);
      expect((await listingAs(listing._id)).status).toBe(404);
      expect((await listingAs(listing._id, stranger)).status).toBe(404);
      expect((await listingAs(listing._id, seller)).status).toBe(200);
      expect((await listingAs(listing._id, moderator)).status).toBe(200);
      const search = dataOf(await route('GET /api/listing/get', { query: { searchTerm: name } }));
      expect(search.map((l) => l._id)).not.toContain(listing._id);
      const course = dataOf(await route('GET /api/course/:code', { params: { code: 'CHEM 141' } }));
      expect(course.books.flatMap((b) => b.listingIds)).not.toContain(listing._id);
      // A shared link's preview (Open Graph tags) says nothing of it.
      expect(await findListingPageHead(t.app, listing._id)).toBeUndefined();
      // Reporting it now tells nothing either (a removed listing is not found).
      if (how === 'removed') {
        expect((await report(listing._id, stranger, 'other')).status).toBe(404);
      }
    });
  }

  it('comes back in the saved list when a moderator dismisses the reports that hid it', async () => {
    const listing = await takenDown('hidden', 'Hidden then dismissed');
    expect(await savedIds(saver)).not.toContain(listing._id);
    const res = await route('POST /api/moderation/listings/:listingId/dismiss', {
      as: moderator,
      params: { listingId: listing._id },
    });
    expect(res.status).toBe(200);
    expect(await savedIds(saver)).toContain(listing._id);
  });

  it('mails savers no news of a listing hidden before the mail went', async () => {
    const other = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Cheaper then hidden' });
    await save(listing._id, other);
    const drop = await route('POST /api/listing/update/:id', {
      as: seller,
      params: { id: listing._id },
      body: {
        ...listingBody({ name: 'Cheaper then hidden', imageUrls: listing.imageUrls }),
        regularPrice: 5,
      },
    });
    expect(drop.status).toBe(200);
    // Hidden by a report before the jobs run: the price drop is not mailed.
    await report(listing._id, stranger, 'spam_or_scam');
    await t.app.jobs.runDue();
    expect(await mailsTo(t, other.email)).toHaveLength(0);
  });
});
