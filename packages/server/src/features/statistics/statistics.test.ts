import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationEvents, conversations } from '../../db/conversations.schema';
import { alertDeliveries, alerts } from '../../db/alerts.schema';
import { searchMisses } from '../../db/platform.schema';
import { savedListings } from '../../db/saved.schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { MAX_PENDING_TERMS, normaliseSearchTerm } from '../../plugins/search-misses';
import { weekStart } from './statistics.service';

const MODERATOR = `stats.moderator.${Date.now()}@richmond.edu`;
/** A Wednesday: this week starts Monday 2027-03-15, the one before on 2027-03-08. */
const NOW = new Date('2027-03-17T12:00:00Z');
const at = (iso: string) => new Date(`${iso}T10:00:00Z`);

describe(`operator statistics (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let moderator: TestUser;
  let seller: TestUser;
  let buyer: TestUser;
  const get = (url: string, cookie?: string) =>
    t.app.inject({ url, headers: cookie ? { cookie } : {} });
  const search = (term: string, more = '') =>
    get(`/api/listing/get?searchTerm=${encodeURIComponent(term)}${more}`);

  beforeAll(async () => {
    t = await createTestApp({ MODERATOR_EMAILS: MODERATOR }, { now: () => NOW });
    moderator = await createUser(t, { email: MODERATOR });
    seller = await createUser(t);
    buyer = await createUser(t);
    const old = at('2027-03-09');
    const [kept] = await insertListings(t, seller.id, [
      {
        name: 'Linear Algebra Done Right',
        createdAt: at('2027-03-16'),
        confirmedAt: at('2027-03-16'),
      },
      { createdAt: old, confirmedAt: old },
      { createdAt: old, confirmedAt: old, status: 'sold', soldAt: at('2027-03-16') },
      { createdAt: old, confirmedAt: old, status: 'expired', expiresAt: at('2027-03-10') },
    ]);
    await t.database.db.insert(savedListings).values({
      userId: buyer.id,
      listingId: kept!,
      createdAt: at('2027-03-16'),
    });
    const [alert] = await t.database.db
      .insert(alerts)
      .values({ userId: buyer.id, searchTerm: 'physics', termWords: ['physics'], createdAt: old })
      .returning();
    await t.database.db.insert(alertDeliveries).values([
      { userId: buyer.id, listingId: kept!, alertId: alert!.id, event: 'alert', sentAt: old },
      { userId: buyer.id, listingId: kept!, alertId: alert!.id, event: 'sold' },
    ]);
    const [conversation] = await t.database.db
      .insert(conversations)
      .values({ listingId: kept!, listingName: 'x', sellerId: seller.id, buyerId: buyer.id })
      .returning();
    await t.database.db.insert(conversationEvents).values([
      {
        conversationId: conversation!.id,
        kind: 'message',
        senderId: buyer.id,
        body: 'Hi',
        createdAt: old,
      },
      {
        conversationId: conversation!.id,
        kind: 'offer',
        senderId: buyer.id,
        amount: 5,
        createdAt: old,
      },
    ]);
  });
  afterAll(async () => t.close());

  it('is for moderators only: 401 signed out, 403 for a student, 400 for a bad period', async () => {
    expect((await get('/api/statistics')).statusCode).toBe(401);
    const student = await get('/api/statistics', seller.cookie);
    expect(student.statusCode).toBe(403);
    expect(student.json()).toMatchObject({ success: false, statusCode: 403 });
    for (const weeks of ['0', '53', 'abc', '1.5']) {
      const res = await get(`/api/statistics?weeks=${weeks}`, moderator.cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    }
  });

  it('counts zero-result searches per normalised term, never a search that found something', async () => {
    await search('Organic Chemistry');
    await search('organic   CHEMISTRY ');
    await search('Organic Chemistry');
    await search('Organic Chemistry', '&startIndex=20'); // a later page: not counted again
    await search('a one-off typo xq');
    await search('Linear Algebra'); // found
    await t.app.searchMisses.flush();
    const rows = await t.database.db.select().from(searchMisses);
    expect(rows.sort((a, b) => a.term.localeCompare(b.term))).toEqual([
      { day: '2027-03-17', term: 'a one-off typo xq', count: 1 },
      { day: '2027-03-17', term: 'organic chemistry', count: 3 },
    ]);
    // Flushed again on the same day, the counts add up (one upsert per term).
    await search('Organic Chemistry');
    await t.app.searchMisses.flush();
    const again = await t.database.db.select().from(searchMisses);
    expect(again.find((r) => r.term === 'organic chemistry')?.count).toBe(4);
  });

  it('answers weekly aggregates and the top missed terms, nothing about a student', async () => {
    // Recorded, not yet written: the statistics write this server's pending terms first.
    await search('organic chemistry');
    const res = await get('/api/statistics?weeks=2', moderator.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.weeks).toEqual([
      {
        weekStart: '2027-03-08',
        listingsCreated: 3,
        listingsSold: 0,
        listingsExpired: 1,
        activeSellers: 1,
        activeBuyers: 1,
        alertsCreated: 1,
        alertNotificationsSent: 1,
        searchesWithoutResults: 0,
        messages: 1,
      },
      {
        weekStart: '2027-03-15',
        listingsCreated: 1,
        listingsSold: 1,
        listingsExpired: 0,
        activeSellers: 1,
        activeBuyers: 1,
        alertsCreated: 0,
        alertNotificationsSent: 0,
        searchesWithoutResults: 6,
        messages: 0,
      },
    ]);
    // A term searched once is left out: it could be one student's own words.
    expect(body.topMissedSearches).toEqual([{ term: 'organic chemistry', count: 5 }]);
    for (const user of [seller, buyer, moderator]) {
      expect(res.body).not.toContain(user.id);
      expect(res.body).not.toContain(user.email);
    }
    expect(res.headers['cache-control']).toBe('no-store');

    const year = (await get('/api/statistics', moderator.cookie)).json();
    expect(year.weeks).toHaveLength(12);
    expect(year.weeks.at(-1).weekStart).toBe('2027-03-15');
  });

  it('holds at most MAX_PENDING_TERMS terms between two writes', async () => {
    await t.app.searchMisses.flush();
    for (let i = 0; i < MAX_PENDING_TERMS + 100; i += 1) t.app.searchMisses.record(`term ${i}`);
    await t.app.searchMisses.flush();
    const rows = await t.database.db.select().from(searchMisses);
    expect(rows.filter((r) => r.term.startsWith('term '))).toHaveLength(MAX_PENDING_TERMS);
  });
});

describe('the week and term rules', () => {
  it('starts weeks on Monday, UTC', () => {
    expect(weekStart(new Date('2027-03-15T00:00:00Z')).toISOString()).toBe(
      '2027-03-15T00:00:00.000Z',
    );
    expect(weekStart(new Date('2027-03-21T23:59:59Z')).toISOString()).toBe(
      '2027-03-15T00:00:00.000Z',
    );
    expect(weekStart(new Date('2027-03-22T00:00:00Z')).toISOString()).toBe(
      '2027-03-22T00:00:00.000Z',
    );
  });

  it('normalises a term: case, spaces, length', () => {
    expect(normaliseSearchTerm('  Organic\t CHEMISTRY ')).toBe('organic chemistry');
    expect(normaliseSearchTerm('x'.repeat(300))).toHaveLength(100);
    expect(normaliseSearchTerm('   ')).toBe('');
  });
});
