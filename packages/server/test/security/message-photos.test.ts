import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import { MAX_UPLOADS_PER_HOUR, imageIdFromUrl, imageUrl } from '@campus-books/common/images';
import { MESSAGE_PHOTO_MESSAGES as P } from '@campus-books/common/message-photos';
import { createUpload } from '../support/tus-test-client';
import { createUploadedImage } from '../support/test-uploaded-image';
import { apiCaller, routeCaller } from '../api-caller';
import { GENEROUS_LIMITS } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { printFigure } from './security-helpers';

/**
 * A student attaches to a message what is not theirs to attach (another's photo or upload in
 * progress, the other side's photo already sent), guesses a sent photo's public address, or
 * bombs a conversation with photos: each is refused, and nothing is written.
 */
describe(`hostile photos in a conversation (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let conversationId: string;
  let requests = 0;
  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
    });
    seller = await createUser(t);
    buyer = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Linear Algebra' });
    const started = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId: listing._id, text: 'Hello' },
    });
    conversationId = dataOf(started).conversationId;
  });
  afterAll(async () => {
    printFigure(`hostile message photos (${TEST_ENGINE})`, { requests });
    await t.close();
  });

  const route = routeCaller(() => t);
  const call = apiCaller(() => t);
  const send = (user: TestUser, photos: string[]) => {
    requests += 1;
    return route('POST /api/conversations/:id/messages', {
      as: user,
      params: { id: conversationId },
      body: { text: 'Look', photos },
    });
  };
  const photoOf = async (user: TestUser) => imageIdFromUrl(await createUploadedImage(t, user.id))!;

  it("refuses another student's photo and another student's upload in progress", async () => {
    const stranger = await createUser(t);
    const theirPhoto = await photoOf(stranger);
    const upload = await createUpload(t.app, stranger.cookie, 1000);
    const theirUpload = upload.location!.split('/').pop()!;
    for (const id of [theirPhoto, theirUpload]) {
      const res = await send(buyer, [id]);
      expect(res.status).toBe(403);
      expect(errorOf(res).message).toBe(P.notYours(id));
    }
  });

  it("refuses the other side's photo sent already, and its public address serves nothing", async () => {
    const id = await photoOf(buyer);
    const { event } = dataOf(await send(buyer, [id]));
    expect(event.photos).toHaveLength(1);
    const res = await send(seller, [id]);
    expect(res.status).toBe(403);
    expect(errorOf(res).message).toBe(P.notYours(id));
    requests += 1;
    expect((await call(seller, 'GET', imageUrl(id, 'full'))).statusCode).toBe(404);
  });

  it('stops a photo bomb: 100 uploads meet the hourly cap, 100 ids in one message the body rule', async () => {
    const bomber = await createUser(t);
    const answers: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      answers.push((await createUpload(t.app, bomber.cookie, 1000)).statusCode);
      requests += 1;
    }
    expect(answers.filter((s) => s === 201)).toHaveLength(MAX_UPLOADS_PER_HOUR);
    expect(answers.slice(MAX_UPLOADS_PER_HOUR).every((s) => s === 429)).toBe(true);

    const ids = Array.from({ length: 100 }, () => crypto.randomUUID());
    const res = await send(buyer, ids);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(`photos: ${P.tooMany}`);
  });
});
