import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SentEvent } from '@campus-books/common/conversation.schemas';
import { GENEROUS_LIMITS } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { checkAnswer } from './check-answer';

/**
 * Hostile uses of "Seen" and of a message's client id: a stranger neither moves nor reads a read
 * mark, a setting or a client id that is not what the API takes is a 400, and a client id cannot
 * fish for another student's message.
 */
describe(`read receipts and client ids under attack (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let conversationId: string;
  let messageId: number;

  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
    });
    [seller, buyer, stranger] = [await createUser(t), await createUser(t), await createUser(t)];
    const listingId = (await createListingAs(t, seller))._id;
    const sent = (await post(buyer, '/api/conversations', { listingId, text: 'Hi' })).json();
    ({ conversationId } = sent as SentEvent);
    messageId = (sent as SentEvent).event.id;
  });
  afterAll(() => t.close());

  function post(user: TestUser | null, url: string, payload: unknown) {
    return t.app.inject({
      method: 'POST',
      url,
      headers: user ? { cookie: user.cookie } : {},
      payload: payload as object,
    });
  }
  const seenByBuyer = async () =>
    (
      (
        await t.app.inject({
          url: `/api/conversations/${conversationId}`,
          headers: { cookie: buyer.cookie },
        })
      ).json() as { seenUpTo: number | null }
    ).seenUpTo;

  it('lets no stranger move a read mark or read one (404, nothing moved)', async () => {
    const read = await post(stranger, `/api/conversations/${conversationId}/read`, {
      upTo: messageId,
    });
    expect(read.statusCode).toBe(404);
    checkAnswer(read, 'stranger read');
    expect(await seenByBuyer()).toBe(0);
    const look = await t.app.inject({
      url: `/api/conversations/${conversationId}`,
      headers: { cookie: stranger.cookie },
    });
    expect(look.statusCode).toBe(404);
  });

  it('refuses signed-out callers and settings that are not a boolean', async () => {
    expect(
      (await post(null, '/api/conversations/receipts', { readReceipts: false })).statusCode,
    ).toBe(401);
    for (const readReceipts of ['false', 0, null, { $ne: true }, [false]]) {
      const res = await post(buyer, '/api/conversations/receipts', { readReceipts });
      expect(res.statusCode, JSON.stringify(readReceipts)).toBe(400);
      checkAnswer(res, 'hostile');
    }
  });

  it('refuses a client id outside its characters and length (400) and writes nothing', async () => {
    for (const clientId of [
      "' OR 1=1 --",
      'x'.repeat(101),
      42,
      `${randomUUID()}\u0000`,
      '',
      'short',
      'a/b/c/d/e',
    ]) {
      const res = await post(buyer, `/api/conversations/${conversationId}/messages`, {
        text: 'Hello',
        clientId,
      });
      expect(res.statusCode, String(clientId).slice(0, 20)).toBe(400);
      checkAnswer(res, 'hostile');
    }
  });

  it("answers nobody else's message for a client id they guess", async () => {
    const clientId = randomUUID();
    const mine = await post(buyer, `/api/conversations/${conversationId}/messages`, {
      text: 'A private note',
      clientId,
    });
    expect(mine.statusCode).toBe(201);
    // The stranger's own conversation, the buyer's client id: a new message of theirs.
    const listingId = (await createListingAs(t, seller))._id;
    const theirs = await post(stranger, '/api/conversations', {
      listingId,
      text: 'Something else',
      clientId,
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.body).not.toContain('A private note');
    expect((theirs.json() as SentEvent).event.body).toBe('Something else');
  });
});
