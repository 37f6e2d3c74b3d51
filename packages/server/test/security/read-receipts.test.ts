import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { GENEROUS_LIMITS } from '../accounts';
import { routeCaller } from '../api-caller';
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
    const sent = dataOf(
      await route('POST /api/conversations', { as: buyer, body: { listingId, text: 'Hi' } }),
    );
    ({ conversationId } = sent);
    messageId = sent.event.id;
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  /** Raw: hostile bodies no typed call can send, answers `checkAnswer` reads as sent. */
  function post(user: TestUser | null, url: string, payload: unknown) {
    return t.app.inject({
      method: 'POST',
      url,
      headers: user ? { cookie: user.cookie } : {},
      payload: payload as object,
    });
  }
  const thread = (user: TestUser) =>
    route('GET /api/conversations/:id', { as: user, params: { id: conversationId } });
  const seenByBuyer = async () => dataOf(await thread(buyer)).seenUpTo;

  it('lets no stranger move a read mark or read one (404, nothing moved)', async () => {
    const read = await post(stranger, `/api/conversations/${conversationId}/read`, {
      upTo: messageId,
    });
    expect(read.statusCode).toBe(404);
    checkAnswer(read, 'stranger read');
    expect(await seenByBuyer()).toBe(0);
    expect((await thread(stranger)).status).toBe(404);
  });

  it('refuses signed-out callers and settings that are not a boolean', async () => {
    const signedOut = await route('POST /api/conversations/receipts', {
      body: { readReceipts: false },
    });
    expect(signedOut.status).toBe(401);
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
    const mine = await route('POST /api/conversations/:id/messages', {
      as: buyer,
      params: { id: conversationId },
      body: { text: 'A private note', clientId },
    });
    expect(mine.status).toBe(201);
    // The stranger's own conversation, the buyer's client id: a new message of theirs.
    const listingId = (await createListingAs(t, seller))._id;
    const theirs = await route('POST /api/conversations', {
      as: stranger,
      body: { listingId, text: 'Something else', clientId },
    });
    expect(theirs.status).toBe(201);
    expect(JSON.stringify(dataOf(theirs))).not.toContain('A private note');
    expect(dataOf(theirs).event.body).toBe('Something else');
  });
});
