import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { conversationEvents } from '../../src/db/conversations.schema';
import { listings } from '../../src/db/schema';
import { routeCaller } from '../api-caller';
import { GENEROUS_LIMITS } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { printFigure } from './security-helpers';

const RACERS = 25;

/**
 * One offer for several books (issue 44): the seller accepts, all at once, 25 offers of different
 * buyers whose sets share books. Each book is held at most once, every accepted set is held whole
 * and no refused one in part, and every answer is a 200 or a 409 (no deadlock, no 500).
 */
describe(`racing accepts of overlapping sets (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  const figures = { accepted: 0, refused: 0, books: 0 };
  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
    });
    seller = await createUser(t);
  });
  afterAll(async () => {
    printFigure(`racing accepts of overlapping sets (${TEST_ENGINE})`, figures);
    await t.close();
  });

  const route = routeCaller(() => t);

  it('holds each book at most once, each set whole or not at all, with no 500s', async () => {
    // Five books each buyer writes about, and four books the sets share, in overlapping pairs.
    const own = [];
    for (let i = 0; i < 5; i++)
      own.push((await createListingAs(t, seller, { name: `Own ${i}` }))._id);
    const shared = [];
    for (let i = 0; i < 4; i++) {
      shared.push((await createListingAs(t, seller, { name: `Shared ${i}` }))._id);
    }
    figures.books = own.length + shared.length;
    const offers: { conversation: string; offerId: string; set: string[] }[] = [];
    for (let i = 0; i < RACERS; i++) {
      const buyer = await createUser(t);
      const listingId = own[i % own.length]!;
      const started = await route('POST /api/conversations', {
        as: buyer,
        body: { listingId, text: 'All of them?' },
      });
      const conversation = dataOf(started).conversationId;
      // Sets in both orders, so that an accept that locked as asked would wait in a cycle.
      const extra =
        i % 2 === 0
          ? [shared[i % 4]!, shared[(i + 1) % 4]!]
          : [shared[(i + 1) % 4]!, shared[i % 4]!];
      const made = await route('POST /api/conversations/:id/offers', {
        as: buyer,
        params: { id: conversation },
        body: { amount: 30, listingIds: extra },
      });
      expect(made.status).toBe(201);
      offers.push({
        conversation,
        offerId: dataOf(made).event.offerId!,
        set: [listingId, ...extra],
      });
    }

    const answers = await Promise.all(
      offers.map(({ conversation, offerId }) =>
        route('POST /api/conversations/:id/offers/:offerId/accept', {
          as: seller,
          params: { id: conversation, offerId },
        }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    const accepted = offers.filter((_, i) => answers[i]!.status === 200);
    figures.accepted = accepted.length;
    figures.refused = RACERS - accepted.length;
    expect(accepted.length).toBeGreaterThanOrEqual(1);

    const rows = await t.database.db
      .select()
      .from(listings)
      .where(inArray(listings.id, [...own, ...shared]));
    const holdOf = new Map(rows.map((row) => [row.id, row.holdOfferId]));
    // Every accepted set is held whole, by its own offer; no two accepted sets share a book.
    const seen = new Set<string>();
    for (const { offerId, set } of accepted) {
      for (const id of set) {
        expect(holdOf.get(id)).toBe(offerId);
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
    // No refused offer holds anything, and every held book is held by an accepted offer.
    const acceptedIds = new Set(accepted.map((o) => o.offerId));
    for (const row of rows) {
      if (row.holdOfferId !== null) expect(acceptedIds.has(row.holdOfferId)).toBe(true);
    }
    // One accepted line per accepted offer, none for the refused.
    const lines = await t.database.db
      .select()
      .from(conversationEvents)
      .where(
        inArray(
          conversationEvents.offerId,
          offers.map((o) => o.offerId),
        ),
      );
    const acceptedLines = lines.filter((e) => e.kind === 'offer_accepted');
    expect(acceptedLines.map((e) => e.offerId).sort()).toEqual([...acceptedIds].sort());
  });
});
