import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import { imageIdFromUrl, imageUrl } from '@campus-books/common/images';
import {
  CONVERSATION_MESSAGES,
  PHOTO_ONLY_PREVIEW,
} from '@campus-books/common/conversation.schemas';
import { MESSAGE_PHOTO_MESSAGES as P } from '@campus-books/common/message-photos';
import { images } from '../../db/schema';
import { moderationLog } from '../../db/moderation.schema';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller, routeCaller } from '../../../test/api-caller';
import { campusValues } from '../../../test/campus-values';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { eventsAfter, latestSeq } from './live-events';
import { sendMessageMails } from './message-mails';
import { mailsTo } from '../../../test/outbox';
import { NOT_YOUR_IMAGES } from '../images/images.service';
import { collectStudentData } from '../privacy/data-export';

/** A moderator's address on the test campus's school domain. */
const MODERATOR = campusValues.email('photo-moderator');

/**
 * Photos in a conversation: up to four of the sender's own processed uploads, attached once and
 * atomically with the message, served only to the two participants (and moderators of a report).
 */
describe(`photos in a conversation (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
      MODERATOR_EMAILS: MODERATOR,
    });
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const call = apiCaller(() => t);

  async function conversation() {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Organic Chemistry' });
    const started = dataOf(
      await route('POST /api/conversations', {
        as: buyer,
        body: { listingId: listing._id, text: 'Hi' },
      }),
    );
    return { seller, buyer, id: started.conversationId };
  }
  const photo = async (owner: TestUser) => imageIdFromUrl(await createUploadedImage(t, owner.id))!;
  const send = (user: TestUser, id: string, photos: string[], text = 'See the cover') =>
    route('POST /api/conversations/:id/messages', {
      as: user,
      params: { id },
      body: { text, photos },
    });
  const statusOf = async (id: string) =>
    (await t.database.db.select().from(images).where(eq(images.id, id)))[0]?.status;

  it('sends photos with a message; the other side sees them in the thread, live, and only there', async () => {
    const c = await conversation();
    const [a, b] = [await photo(c.buyer), await photo(c.buyer)];
    const seqBefore = await latestSeq(t.database.db);
    const sent = await send(c.buyer, c.id, [a, b]);
    expect(sent.status).toBe(201);
    const { event } = dataOf(sent);
    expect(event.photos).toEqual([
      {
        id: a,
        thumbnail: `/api/conversations/${c.id}/photos/${a}/640.webp`,
        full: `/api/conversations/${c.id}/photos/${a}/full.webp`,
      },
      expect.objectContaining({ id: b }),
    ]);
    expect(await statusOf(a)).toBe('in_message');

    const thread = dataOf(
      await route('GET /api/conversations/:id', { as: c.seller, params: { id: c.id } }),
    );
    expect(thread.events.at(-1)?.photos).toEqual(event.photos);
    const live = await eventsAfter(t.database.db, c.seller.id, seqBefore, 10);
    expect(live.events.map((l) => l.event.photos)).toContainEqual(event.photos);

    for (const viewer of [c.seller, c.buyer]) {
      const res = await call(viewer, 'GET', event.photos[0]!.thumbnail);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
    }
    // Not to a stranger, not signed out, not at the public image address, not from another conversation.
    const other = await conversation();
    expect((await call(await createUser(t), 'GET', event.photos[0]!.full)).statusCode).toBe(404);
    expect((await call(null, 'GET', event.photos[0]!.full)).statusCode).toBe(401);
    expect((await call(c.seller, 'GET', imageUrl(a, 640))).statusCode).toBe(404);
    const elsewhere = `/api/conversations/${other.id}/photos/${a}/640.webp`;
    expect((await call(other.seller, 'GET', elsewhere)).statusCode).toBe(404);
  });

  it('refuses each bad photo with a 4xx naming it, and then writes neither message nor photo', async () => {
    const c = await conversation();
    const mine = await photo(c.buyer);
    const theirs = await photo(await createUser(t));
    const unknown = randomUUID();
    const uploading = randomUUID();
    await t.database.db.insert(images).values({ id: uploading, ownerId: c.buyer.id, bytes: 10 });
    const cases: [string, number, string][] = [
      [unknown, 400, P.unknown(unknown)],
      [theirs, 403, P.notYours(theirs)],
      [uploading, 409, P.notProcessed(uploading)],
    ];
    const before = dataOf(
      await route('GET /api/conversations/:id', { as: c.buyer, params: { id: c.id } }),
    ).events.length;
    for (const [bad, status, message] of cases) {
      const res = await send(c.buyer, c.id, [mine, bad]);
      expect(res.status).toBe(status);
      expect(errorOf(res).message).toBe(message);
    }
    expect(await statusOf(mine)).toBe('ready');
    expect(await statusOf(theirs)).toBe('ready');
    const after = dataOf(
      await route('GET /api/conversations/:id', { as: c.buyer, params: { id: c.id } }),
    ).events.length;
    expect(after).toBe(before);

    // Too many, twice the same, not an id: the body's rule.
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => photo(c.buyer)));
    expect(errorOf(await send(c.buyer, c.id, five)).message).toBe(`photos: ${P.tooMany}`);
    expect(errorOf(await send(c.buyer, c.id, [mine, mine])).message).toBe(`photos: ${P.twice}`);
    expect((await send(c.buyer, c.id, ['../../etc/passwd'])).status).toBe(400);
    expect((await send(c.buyer, c.id, five.slice(0, 4))).status).toBe(201);
  });

  it('sends photos without text; text stays required without photos; the inbox and the mail say "Photo"', async () => {
    const c = await conversation();
    const [a, b] = [await photo(c.buyer), await photo(c.buyer)];
    const photoOnly = (body: { text?: string; photos?: string[] }) =>
      route('POST /api/conversations/:id/messages', { as: c.buyer, params: { id: c.id }, body });
    // No photo: an absent, empty or blank text is the same 400 as before.
    for (const body of [{}, { text: '' }, { text: ' \u200B ' }, { text: '', photos: [] }]) {
      const res = await photoOnly(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).message).toBe(`text: ${CONVERSATION_MESSAGES.textRequired}`);
    }
    const sent = await photoOnly({ photos: [a] });
    expect(sent.status).toBe(201);
    expect(dataOf(sent).event).toMatchObject({ kind: 'message', body: '', photos: [{ id: a }] });
    expect(await statusOf(a)).toBe('in_message');
    // A blank text beside a photo is no text.
    expect(dataOf(await photoOnly({ text: '  ', photos: [b] })).event.body).toBe('');

    const inbox = dataOf(await route('GET /api/conversations', { as: c.seller })).conversations;
    expect(inbox.find((line) => line.id === c.id)?.lastEvent).toMatchObject({
      kind: 'message',
      preview: PHOTO_ONLY_PREVIEW,
    });
    const mailDeps = { db: t.database.db, mailer: t.app.mailer, log: t.app.log, config: t.config };
    await sendMessageMails(mailDeps, new Date(Date.now() + 60 * 60_000));
    const [mail] = await mailsTo(t, c.seller.email);
    expect(mail!.text).toContain('> Hi\n> Sent a photo\n> Sent a photo\n');
  });

  it('takes photos with the first message, claimed once and atomically with the conversation', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Photo First' });
    const [a, b] = [await photo(buyer), await photo(buyer)];
    const theirs = await photo(seller);
    const first = (body: { text?: string; photos?: string[]; clientId?: string }) =>
      route('POST /api/conversations', { as: buyer, body: { listingId: listing._id, ...body } });
    const inboxOf = async (user: TestUser) =>
      dataOf(await route('GET /api/conversations', { as: user })).conversations;

    // A refused photo opens no conversation and claims none of the others.
    const refused = await first({ photos: [a, theirs] });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).message).toBe(P.notYours(theirs));
    expect(await inboxOf(buyer)).toEqual([]);
    expect(await statusOf(a)).toBe('ready');
    expect(errorOf(await first({ text: ' ' })).message).toBe(
      `text: ${CONVERSATION_MESSAGES.textRequired}`,
    );

    // Sent twice with one clientId: one message, its photos claimed once; other photos: a 409.
    const clientId = randomUUID();
    const answers = await Promise.all([
      first({ photos: [a], clientId }),
      first({ photos: [a], clientId }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    const [one, two] = answers.map((r) => dataOf(r));
    expect(two!.event.id).toBe(one!.event.id);
    expect(one!.event).toMatchObject({ body: '', photos: [{ id: a }] });
    expect(await statusOf(a)).toBe('in_message');
    const reused = await first({ photos: [b], clientId });
    expect(reused.status).toBe(409);
    expect(errorOf(reused).message).toBe(CONVERSATION_MESSAGES.clientIdReused);
    expect(await statusOf(b)).toBe('ready');

    // The next first message goes to the same thread, with text and photos; the seller sees both.
    const next = dataOf(await first({ text: 'And the back', photos: [b] }));
    expect(next.conversationId).toBe(one!.conversationId);
    const thread = dataOf(
      await route('GET /api/conversations/:id', {
        as: seller,
        params: { id: one!.conversationId },
      }),
    );
    expect(thread.events.map((e) => [e.body, e.photos.map((p) => p.id)])).toEqual([
      ['', [a]],
      ['And the back', [b]],
    ]);
    expect(await first({ photos: [a] })).toMatchObject({ status: 409 });
  });

  it('attaches a photo once: not to a second message, a listing or a profile', async () => {
    const c = await conversation();
    const id = await photo(c.seller);
    expect((await send(c.seller, c.id, [id])).status).toBe(201);
    const again = await send(c.seller, c.id, [id]);
    expect(again.status).toBe(409);
    expect(errorOf(again).message).toBe(P.alreadyAttached(id));
    const listing = await call(
      c.seller,
      'POST',
      '/api/listing/create',
      listingBody({ imageUrls: [imageUrl(id)] }),
    );
    expect(listing.statusCode).toBe(400);
    expect(listing.json().message).toBe(NOT_YOUR_IMAGES);
    // And a listing's photo is not sent in a message.
    const shown = await photo(c.seller);
    expect(
      (
        await call(
          c.seller,
          'POST',
          '/api/listing/create',
          listingBody({ imageUrls: [imageUrl(shown)] }),
        )
      ).statusCode,
    ).toBe(201);
    expect(errorOf(await send(c.seller, c.id, [shown])).message).toBe(P.alreadyAttached(shown));
  });

  it('lets exactly one of two parallel sends of the same photo through', async () => {
    const c = await conversation();
    const id = await photo(c.buyer);
    const answers = await Promise.all([send(c.buyer, c.id, [id]), send(c.buyer, c.id, [id])]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const thread = dataOf(
      await route('GET /api/conversations/:id', { as: c.seller, params: { id: c.id } }),
    );
    expect(thread.events.filter((e) => e.photos.some((p) => p.id === id))).toHaveLength(1);
  });

  it('shows a reported conversation’s photos to a moderator, each read logged, until dismissed', async () => {
    const moderator = await createUser(t, { email: MODERATOR });
    const c = await conversation();
    const id = await photo(c.buyer);
    const { event } = dataOf(await send(c.buyer, c.id, [id]));
    const url = event.photos[0]!.thumbnail;
    expect((await call(moderator, 'GET', url)).statusCode).toBe(404);
    await call(c.seller, 'POST', `/api/conversations/${c.id}/report`, { reason: 'harassment' });
    expect((await call(moderator, 'GET', url)).statusCode).toBe(200);
    const log = await t.database.db
      .select()
      .from(moderationLog)
      .where(eq(moderationLog.conversationId, c.id));
    expect(log.map((l) => l.action)).toEqual(['read_conversation']);
    await call(moderator, 'POST', `/api/moderation/conversations/${c.id}/dismiss`);
    expect((await call(moderator, 'GET', url)).statusCode).toBe(404);
  });

  it('puts a student’s sent photos in their data export, with each message’s photo ids', async () => {
    const c = await conversation();
    const id = await photo(c.buyer);
    expect((await send(c.buyer, c.id, [id])).status).toBe(201);
    const data = await collectStudentData(
      { db: t.database.db, now: () => new Date(), revealMs: 0 },
      c.buyer.id,
    );
    expect(data?.photos.map((p) => p.id)).toContain(id);
    expect(data?.messages.map((m) => m.photoIds)).toContainEqual([id]);
  });

  it('deletes a student’s photos with their account: files and rows; the thread shows none', async () => {
    const c = await conversation();
    const id = await photo(c.buyer);
    expect((await send(c.buyer, c.id, [id])).status).toBe(201);
    const deleted = await call(c.buyer, 'DELETE', `/api/user/delete/${c.buyer.id}`, {
      currentPassword: c.buyer.password,
    });
    expect(deleted.statusCode).toBe(200);
    expect(await statusOf(id)).toBeUndefined();
    expect(await t.app.storage.list(`images/${id}/`)).toEqual([]);
    const thread = dataOf(
      await route('GET /api/conversations/:id', { as: c.seller, params: { id: c.id } }),
    );
    expect(thread.events.flatMap((e) => e.photos)).toEqual([]);
    const url = `/api/conversations/${c.id}/photos/${id}/640.webp`;
    expect((await call(c.seller, 'GET', url)).statusCode).toBe(404);
  });
});
