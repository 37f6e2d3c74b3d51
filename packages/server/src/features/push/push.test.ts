import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dataOf, errorOf, type ApiCallOptions } from '@campus-books/common/call-route';
import type { PushPayload } from '@campus-books/common/push.schemas';
import {
  PushServiceStandIn,
  type DeviceSubscription,
} from '../../../test/support/push-service-stand-in';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { createListingAs } from '../../../test/listing-fixtures';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';
import { imageIdFromUrl } from '@campus-books/common/images';
import { pushSubscriptions } from '../../db/push.schema';
import { users } from '../../db/schema';
import { jobs } from '../../db/platform.schema';
import { loadOrCreateVapidKeys, vapidKeysFile } from './vapid-keys';

describe(`web push through a local push-service stand-in that decrypts each payload (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let push: PushServiceStandIn;
  let seller: TestUser;
  let buyer: TestUser;
  beforeAll(async () => {
    push = await PushServiceStandIn.start();
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
      PUSH_TEST_ENDPOINTS: 'on',
      VAPID_SUBJECT: 'mailto:operators@richmond.edu',
    });
    seller = await createUser(t);
    buyer = await createUser(t);
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  const route = routeCaller(() => t);
  type Subscription = ApiCallOptions<'POST /api/push/subscriptions'>['body'];
  const subscribeAs = (user: TestUser | null, body: Subscription) =>
    route('POST /api/push/subscriptions', { as: user, body });
  const subscriptionsOf = (user: TestUser | null) =>
    route('GET /api/push/subscriptions', { as: user });
  const unsubscribe = (user: TestUser, endpoint: string) =>
    route('DELETE /api/push/subscriptions', { as: user, body: { endpoint } });
  const publicKeyOf = async () => dataOf(await route('GET /api/push/key')).publicKey;
  const subscribe = async (user: TestUser, alerts?: boolean) => {
    const device = push.subscribe();
    const res = await subscribeAs(user, {
      endpoint: device.endpoint,
      keys: device.keys,
      ...(alerts === undefined ? {} : { alerts }),
    });
    expect(res.status, JSON.stringify(res)).toBe(200);
    return device;
  };
  const rowsOf = (endpoint: string) =>
    t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
  const open = async (user: TestUser, listingId: string, text: string) => {
    const res = await route('POST /api/conversations', { as: user, body: { listingId, text } });
    expect(res.status, JSON.stringify(res)).toBe(201);
    return dataOf(res).conversationId;
  };
  const work = () => t.app.jobs.runDue();

  it('answers the VAPID public key, generated once into DATA_DIR with mode 0600', async () => {
    const publicKey = await publicKeyOf();
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(statSync(vapidKeysFile(t.dataDir)).mode & 0o777).toBe(0o600);
    // A restart (or a second process on the same DATA_DIR) keeps the pair.
    expect((await loadOrCreateVapidKeys(t.dataDir)).publicKey).toBe(publicKey);
    expect(t.app.push.publicKey).toBe(publicKey);
  });

  it('a message reaches each of the seller’s devices, encrypted for it, with a VAPID JWT, and no message text', async () => {
    const phone = await subscribe(seller);
    const laptop = await subscribe(seller);
    const buyersPhone = await subscribe(buyer);
    const listing = await createListingAs(t, seller, {
      name: 'Organic Chemistry',
      regularPrice: 40,
    });
    const conversationId = await open(buyer, listing._id, 'Is it still available? Call 555-0100');
    expect(push.received).toHaveLength(0); // the send did not wait for the push service
    await work();
    const publicKey = await publicKeyOf();
    for (const device of [phone, laptop]) {
      const [received, ...more] = push.to(device.device);
      expect(more).toHaveLength(0);
      expect(received!.error).toBeNull();
      expect(received!.payload).toEqual({
        kind: 'message',
        title: 'New message about Organic Chemistry',
        url: `/messages/${conversationId}`,
        tag: `conversation:${conversationId}`,
      } satisfies PushPayload);
      expect(received!.vapidPublicKey).toBe(publicKey);
      expect(received!.jwt.sub).toBe('mailto:operators@richmond.edu');
      const expiresIn = received!.jwt.exp! - Date.now() / 1000;
      expect(expiresIn).toBeGreaterThan(0);
      expect(expiresIn).toBeLessThanOrEqual(24 * 60 * 60);
      expect(received!.headers).toMatchObject({
        'content-encoding': 'aes128gcm',
        ttl: String(2 * 24 * 60 * 60),
        urgency: 'high',
        topic: conversationId.replace(/-/g, ''),
      });
      // The message's text (its number), never a random id that happens to hold the same digits.
      expect(JSON.stringify(received!.payload)).not.toContain('555-0100');
    }
    // The sender's own device is not told of their own message.
    expect(push.to(buyersPhone.device)).toHaveLength(0);

    // The seller answers: the buyer's phone hears of it.
    await route('POST /api/conversations/:id/messages', {
      as: seller,
      params: { id: conversationId },
      body: { text: 'Yes!' },
    });
    await work();
    expect(push.to(buyersPhone.device).map((r) => r.payload)).toEqual([
      expect.objectContaining({ kind: 'message', title: 'New message about Organic Chemistry' }),
    ]);
  });

  it('offers and their answers are notified; nothing is sent for what was read meanwhile', async () => {
    const sellerA = await createUser(t);
    const buyerA = await createUser(t);
    const sellersPhone = await subscribe(sellerA);
    const buyersPhone = await subscribe(buyerA);
    const listing = await createListingAs(t, sellerA, { name: 'Calculus', regularPrice: 50 });
    const c = await open(buyerA, listing._id, 'Hello');
    await work();
    const offer = await route('POST /api/conversations/:id/offers', {
      as: buyerA,
      params: { id: c },
      body: { amount: 40 },
    });
    expect(offer.status).toBe(201);
    await work();
    const offerId = dataOf(offer).event.offerId!;
    const accepted = await route('POST /api/conversations/:id/offers/:offerId/accept', {
      as: sellerA,
      params: { id: c, offerId },
    });
    expect(accepted.status).toBe(200);
    await work();
    expect(push.to(sellersPhone.device).map((r) => (r.payload as PushPayload).title)).toEqual([
      'New message about Calculus',
      'New offer on Calculus',
    ]);
    expect(push.to(buyersPhone.device).map((r) => (r.payload as PushPayload).title)).toEqual([
      'Your offer on Calculus was accepted',
    ]);

    // A message the seller reads in the app before the job runs is not pushed.
    const sent = await route('POST /api/conversations/:id/messages', {
      as: buyerA,
      params: { id: c },
      body: { text: 'Great' },
    });
    const upTo = dataOf(sent).event.id;
    const read = await route('POST /api/conversations/:id/read', {
      as: sellerA,
      params: { id: c },
      body: { upTo },
    });
    expect(read.status, JSON.stringify(read)).toBeLessThan(300);
    await work();
    expect(push.to(sellersPhone.device)).toHaveLength(2);
  });

  it('a subscription the push service answers 410 or 404 is removed; a 503 is retried later', async () => {
    const s = await createUser(t);
    const b = await createUser(t);
    const gone = await subscribe(s);
    const notFound = await subscribe(s);
    const down = await subscribe(s);
    push.answer(gone.device, 410);
    push.answer(notFound.device, 404);
    push.answer(down.device, 503);
    const listing = await createListingAs(t, s, { name: 'Statistics' });
    await open(b, listing._id, 'Hi');
    await work();
    expect(push.to(gone.device)).toHaveLength(1);
    expect(await rowsOf(gone.endpoint)).toHaveLength(0);
    expect(await rowsOf(notFound.endpoint)).toHaveLength(0);
    expect(await rowsOf(down.endpoint)).toHaveLength(1);
    const [retry] = await t.database.db.select().from(jobs).where(eq(jobs.name, 'push.send'));
    expect(retry).toMatchObject({ attempts: 1, lastError: 'The push service answered 503' });
    expect(retry!.runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('alert matches reach only the devices whose student chose them', async () => {
    const student = await createUser(t);
    const withAlerts = await subscribe(student, true);
    const without = await subscribe(student);
    const alert = await route('POST /api/alerts/create', {
      as: student,
      body: { searchTerm: 'microeconomics' },
    });
    expect(alert.status, JSON.stringify(alert)).toBe(201);
    const listing = await createListingAs(t, seller, { name: 'Microeconomics', regularPrice: 30 });
    await work();
    expect(push.to(withAlerts.device).map((r) => r.payload)).toEqual([
      {
        kind: 'alert',
        title: 'New for your alert: Microeconomics',
        url: `/listing/${listing._id}`,
        tag: `listing:${listing._id}`,
      },
    ]);
    expect(push.to(without.device)).toHaveLength(0);
    // Subscribing again without `alerts` keeps the device's choice; false turns it off.
    const again = await subscribeAs(student, {
      endpoint: withAlerts.endpoint,
      keys: withAlerts.keys,
    });
    expect(dataOf(again)).toEqual({ endpoint: withAlerts.endpoint, alerts: true });
    const off = await subscribeAs(student, { ...withAlerts, alerts: false });
    expect(dataOf(off)).toMatchObject({ alerts: false });
  });

  it('25 parallel subscriptions of one device make one row; it moves to whoever subscribes it next', async () => {
    const student = await createUser(t);
    const other = await createUser(t);
    const device = push.subscribe();
    const body = { endpoint: device.endpoint, keys: device.keys };
    const answers = await Promise.all(Array.from({ length: 25 }, () => subscribeAs(student, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    expect(await rowsOf(device.endpoint)).toMatchObject([{ userId: student.id }]);
    await subscribeAs(other, body);
    expect(await rowsOf(device.endpoint)).toMatchObject([{ userId: other.id, alerts: false }]);
  });

  it('a student lists only their own devices, latest first, with their alerts choice', async () => {
    const student = await createUser(t);
    const other = await createUser(t);
    expect((await subscriptionsOf(null)).status).toBe(401);
    const phone = await subscribe(student, true);
    const laptop = await subscribe(student);
    await subscribe(other, true);
    expect(dataOf(await subscriptionsOf(student))).toEqual({
      subscriptions: [
        { endpoint: laptop.endpoint, alerts: false },
        { endpoint: phone.endpoint, alerts: true },
      ],
    });
  });

  it('unsubscribing removes only the student’s own device; signing out removes its subscription', async () => {
    const student = await createUser(t);
    const other = await createUser(t);
    const device = await subscribe(student);
    expect((await unsubscribe(other, device.endpoint)).status).toBe(200);
    expect(await rowsOf(device.endpoint)).toHaveLength(1);
    expect((await unsubscribe(student, device.endpoint)).status).toBe(200);
    expect(await rowsOf(device.endpoint)).toHaveLength(0);
    expect(dataOf(await subscriptionsOf(student))).toEqual({
      subscriptions: [],
    });

    const second = await subscribe(student);
    expect((await route('POST /api/auth/signout', { as: student })).status).toBeLessThan(300);
    expect(await rowsOf(second.endpoint)).toHaveLength(0);
  });

  it('refuses what it cannot use: not signed in, unverified, bad keys, an endpoint that is not a URL', async () => {
    const device: DeviceSubscription = push.subscribe();
    expect((await subscribeAs(null, device)).status).toBe(401);
    const unverified = await createUser(t, { verified: false });
    expect((await subscribeAs(unverified, device)).status).toBe(403);
    const badKey = await subscribeAs(buyer, {
      ...device,
      keys: { ...device.keys, p256dh: 'AAAA' },
    });
    expect(badKey.status).toBe(400);
    expect(errorOf(badKey).message).toContain('keys');
    expect((await subscribeAs(buyer, { ...device, endpoint: 'push me' })).status).toBe(400);
    const ftp = await subscribeAs(buyer, { ...device, endpoint: 'ftp://example.com/x' });
    expect(ftp.status).toBe(400);
  });

  it('a message whose sender is suspended before it goes out is not notified', async () => {
    const s = await createUser(t);
    const b = await createUser(t);
    const phone = await subscribe(s);
    const listing = await createListingAs(t, s, { name: 'Physics' });
    await open(b, listing._id, 'Hi');
    await t.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, b.id));
    await work();
    expect(push.to(phone.device)).toHaveLength(0);
  });

  it('a message of photos only is notified as a photo sent, not as empty text', async () => {
    const s = await createUser(t);
    const b = await createUser(t);
    const phone = await subscribe(s);
    const listing = await createListingAs(t, s, { name: 'Astronomy' });
    const photo = imageIdFromUrl(await createUploadedImage(t, b.id))!;
    const res = await route('POST /api/conversations', {
      as: b,
      body: { listingId: listing._id, photos: [photo] },
    });
    expect(res.status).toBe(201);
    await work();
    expect(push.to(phone.device).map((r) => r.payload)).toEqual([
      expect.objectContaining({
        kind: 'message',
        title: 'New message about Astronomy: sent a photo',
      }),
    ]);
  });
});
