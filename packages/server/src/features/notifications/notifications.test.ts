import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from '@campus-books/common/notification.schemas';
import { PushServiceStandIn } from '../../../test/support/push-service-stand-in';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller, routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { clickOneClickUnsubscribe, mailsTo, readRawOutbox } from '../../../test/outbox';
import { kindUnsubscribe } from '../alerts/unsubscribe-token';
import { sendMessageMails } from '../conversations/message-mails';
import { queuePushDigests } from '../push/push-digest';
import { sendMailDigests } from './digest';
import { heldNotifications } from '../../db/notifications.schema';
import { users } from '../../db/schema';

const MINUTE = 60_000;
const ZONE = 'America/New_York'; // campus/default.yaml's

/** The local time of the campus at `at`, as "23:30". */
const localTime = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);

/** The first moment after `after` that the campus's clocks show `hhmm` (a half hour). */
function nextLocal(hhmm: string, after: Date): Date {
  const step = 30 * MINUTE;
  let at = new Date(Math.ceil(after.getTime() / step) * step);
  while (localTime(at) !== hhmm) at = new Date(at.getTime() + step);
  return at;
}

const settingsWith = (
  change: (settings: NotificationSettings) => void,
  from: NotificationSettings = DEFAULT_NOTIFICATION_SETTINGS,
): NotificationSettings => {
  const copy = structuredClone(from);
  change(copy);
  return copy;
};

/**
 * What reaches a student (issue 44): per kind, mail and push, and quiet hours in the campus's time
 * zone that hold both until one digest. The jobs run on the injected clock.
 */
describe(`notification choices (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let push: PushServiceStandIn;
  let clock = new Date();
  beforeAll(async () => {
    push = await PushServiceStandIn.start();
    t = await createTestApp(
      {
        ...GENEROUS_LIMITS,
        RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
        RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
        MESSAGE_MAIL_DELAY_MINUTES: '5',
        PUSH_TEST_ENDPOINTS: 'on',
      },
      { now: () => clock },
    );
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  const route = routeCaller(() => t);
  // Raw only for what no typed call can send: settings missing a kind.
  const call = apiCaller(() => t);
  const save = (user: TestUser, settings: NotificationSettings) =>
    route('PUT /api/notifications', { as: user, body: settings });
  const choose = async (user: TestUser, settings: NotificationSettings) => {
    const res = await save(user, settings);
    expect(res.status, res.ok ? '' : res.text).toBe(200);
  };
  const settingsOf = async (user: TestUser) =>
    dataOf(await route('GET /api/notifications', { as: user }));
  const start = (buyer: TestUser, listingId: string, text: string) =>
    route('POST /api/conversations', { as: buyer, body: { listingId, text } });
  const subscribe = (user: TestUser, device: ReturnType<PushServiceStandIn['subscribe']>) =>
    route('POST /api/push/subscriptions', {
      as: user,
      body: { endpoint: device.endpoint, keys: device.keys },
    });
  const message = (user: TestUser, id: string, text: string) =>
    route('POST /api/conversations/:id/messages', { as: user, params: { id }, body: { text } });
  const offer = (user: TestUser, id: string, amount: number) =>
    route('POST /api/conversations/:id/offers', { as: user, params: { id }, body: { amount } });
  async function conversation(name: string) {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const listingId = (await createListingAs(t, seller, { name }))._id;
    const sent = dataOf(await start(buyer, listingId, 'Still free?'));
    return { seller, buyer, listingId, id: sent.conversationId };
  }
  const mailDeps = () => ({
    db: t.app.database.db,
    mailer: t.app.mailer,
    log: t.app.log,
    config: t.app.config,
    publicUrl: t.app.config.publicUrl,
  });
  const runMessageMails = (at: Date) => {
    clock = at;
    return sendMessageMails(mailDeps(), at);
  };
  const messageMailsTo = async (user: TestUser) =>
    (await mailsTo(t, user.email)).filter((m) => m.subject.startsWith('New message about'));

  it("answers today's behaviour for a student who never chose, in the campus's zone", async () => {
    const student = await createUser(t);
    const settings = await settingsOf(student);
    expect(settings).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, timeZone: ZONE });
    // Every kind by mail and push, but the end-of-term mail, which a student asks for.
    expect(settings.kinds.messages).toEqual({ mail: true, push: true });
    expect(settings.kinds.term).toEqual({ mail: false, push: true });
    expect(settings.quietHours).toBeNull();
    expect((await route('GET /api/notifications')).status).toBe(401);
  });

  it('saves the choices, each where it lives; refuses quiet hours that are not times', async () => {
    const student = await createUser(t);
    const wanted = settingsWith((s) => {
      s.kinds.messages.mail = false;
      s.kinds.term.mail = true;
      s.kinds.ratings = { mail: false, push: false };
      s.quietHours = { start: '22:00', end: '07:00' };
    });
    await choose(student, wanted);
    expect(await settingsOf(student)).toEqual({ ...wanted, timeZone: ZONE });
    // The older switches say the same.
    const mails = await route('GET /api/conversations/mails', { as: student });
    expect(dataOf(mails)).toEqual({ messageMails: false });
    const term = await route('GET /api/term-end-mail', { as: student });
    expect(dataOf(term)).toMatchObject({ subscribed: true });

    for (const quietHours of [
      { start: '25:00', end: '07:00' },
      { start: '22:00', end: '22:00' },
      { start: '10pm', end: '7am' },
    ]) {
      const res = await save(student, { ...wanted, quietHours });
      expect(res.status, JSON.stringify(quietHours)).toBe(400);
      expect(errorOf(res)).toMatchObject({ success: false, statusCode: 400 });
    }
    // Raw: settings without a kind, which the typed call cannot send.
    const missingKind = { ...wanted, kinds: { ...wanted.kinds, alerts: undefined } };
    expect((await call(student, 'PUT', '/api/notifications', missingKind)).statusCode).toBe(400);
    expect(await settingsOf(student)).toEqual({ ...wanted, timeZone: ZONE });
  });

  it("a kind's mail turned off stops that mail", async () => {
    const on = await conversation('Mail On');
    const off = await conversation('Mail Off');
    await choose(
      off.seller,
      settingsWith((s) => (s.kinds.messages.mail = false)),
    );
    await runMessageMails(new Date(Date.now() + 6 * MINUTE));
    expect(await messageMailsTo(on.seller)).toHaveLength(1);
    expect(await messageMailsTo(off.seller)).toHaveLength(0);
  });

  it('push off for a kind stops the push job for it; other kinds still push', async () => {
    const c = await conversation('Pushed Or Not');
    const device = push.subscribe();
    const res = await subscribe(c.seller, device);
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    await choose(
      c.seller,
      settingsWith((s) => (s.kinds.messages.push = false)),
    );
    // The push jobs are due when written (the database's time): the clock runs them after that.
    const work = () => {
      clock = new Date(Date.now() + 1000);
      return t.app.jobs.runDue();
    };
    await message(c.buyer, c.id, 'Hello?');
    await work();
    expect(push.to(device.device)).toHaveLength(0);

    const offered = await offer(c.buyer, c.id, 20);
    expect(offered.status, offered.ok ? '' : offered.text).toBe(201);
    await work();
    expect(push.to(device.device).map((r) => r.payload)).toEqual([
      expect.objectContaining({ kind: 'offer' }),
    ]);
  });

  it('quiet hours 22:00–07:00 in the campus zone hold a mail sent at 23:30; one digest at 07:00 has them all', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    await choose(
      seller,
      settingsWith((s) => (s.quietHours = { start: '22:00', end: '07:00' })),
    );
    for (const name of ['Quiet Physics', 'Quiet Poetry']) {
      const listingId = (await createListingAs(t, seller, { name }))._id;
      await start(buyer, listingId, `About ${name}`);
    }
    const lateEvening = nextLocal('23:30', new Date(Date.now() + 10 * MINUTE));
    const morning = nextLocal('07:00', lateEvening);
    expect(localTime(lateEvening)).toBe('23:30');

    await runMessageMails(lateEvening);
    expect(await mailsTo(t, seller.email)).toHaveLength(0);
    // A later run still in the quiet hours neither mails them again nor sends the digest.
    await runMessageMails(new Date(morning.getTime() - 31 * MINUTE));
    await sendMailDigests(mailDeps(), new Date(morning.getTime() - MINUTE));
    expect(await mailsTo(t, seller.email)).toHaveLength(0);

    clock = morning;
    await sendMailDigests(mailDeps(), morning);
    await sendMailDigests(mailDeps(), new Date(morning.getTime() + 5 * MINUTE));
    const [digest, ...more] = await mailsTo(t, seller.email);
    expect(more).toHaveLength(0);
    expect(digest!.subject).toMatch(/^While your quiet hours: 2 mails from /);
    expect(digest!.text).toContain('== New message about Quiet Physics');
    expect(digest!.text).toContain('> About Quiet Physics');
    expect(digest!.text).toContain('== New message about Quiet Poetry');
    expect(digest!.text).toContain(`${t.config.publicUrl}/notifications`);
  });

  it('pushes in quiet hours are held and come as one push to each device when they end', async () => {
    const c = await conversation('Quiet Pushes');
    const device = push.subscribe();
    await subscribe(c.seller, device);
    await choose(
      c.seller,
      settingsWith((s) => (s.quietHours = { start: '22:00', end: '07:00' })),
    );
    // The clock is in the quiet hours before anything is written: the job runner's own polls too.
    const lateEvening = nextLocal('23:30', new Date(Date.now() + 10 * MINUTE));
    clock = lateEvening;
    await message(c.buyer, c.id, 'Hello?');
    await offer(c.buyer, c.id, 15);
    await t.app.jobs.runDue();
    expect(push.to(device.device)).toHaveLength(0);

    clock = nextLocal('07:00', lateEvening);
    await t.app.jobs.runDue(); // the digest job queues one push per device
    await t.app.jobs.runDue();
    expect(push.to(device.device).map((r) => r.payload)).toEqual([
      {
        kind: 'message',
        title: '2 notifications during your quiet hours',
        url: '/messages',
        tag: 'digest',
      },
    ]);
  });

  it("drops what was held for a student suspended during their quiet hours, on both channels, and keeps the others'", async () => {
    const c = await conversation('Held Then Suspended');
    const kept = await conversation('Held And Kept');
    await subscribe(c.seller, push.subscribe());
    const quiet = settingsWith((s) => (s.quietHours = { start: '22:00', end: '07:00' }));
    await choose(c.seller, quiet);
    await choose(kept.seller, quiet);
    const lateEvening = nextLocal('23:30', new Date(Date.now() + 10 * MINUTE));
    clock = lateEvening;
    await message(c.buyer, c.id, 'Held for the morning');
    await t.app.jobs.runDue();
    await runMessageMails(lateEvening);
    const heldOf = async (user: TestUser) =>
      (
        await t.database.db
          .select({ channel: heldNotifications.channel })
          .from(heldNotifications)
          .where(eq(heldNotifications.userId, user.id))
      ).map((row) => row.channel);
    expect((await heldOf(c.seller)).sort()).toEqual(['mail', 'push']);
    expect(await heldOf(kept.seller)).toEqual(['mail']);

    await t.database.db.update(users).set({ suspendedAt: clock }).where(eq(users.id, c.seller.id));
    // Still in the quiet hours: nothing is sent, but nothing is kept for the suspended student either.
    clock = new Date(lateEvening.getTime() + 30 * MINUTE);
    await sendMailDigests(mailDeps(), clock);
    await queuePushDigests({ db: t.app.database.db, jobs: t.app.jobs }, clock);
    expect(await heldOf(c.seller)).toEqual([]);
    expect(await heldOf(kept.seller)).toEqual(['mail']);

    clock = nextLocal('07:00', lateEvening);
    await sendMailDigests(mailDeps(), clock);
    expect(await queuePushDigests({ db: t.app.database.db, jobs: t.app.jobs }, clock)).toBe(0);
    expect(await mailsTo(t, c.seller.email)).toHaveLength(0);
    expect(await mailsTo(t, kept.seller.email)).toHaveLength(1);
    expect(await heldOf(kept.seller)).toEqual([]);
  });

  it('the one-click unsubscribe of a mail turns off exactly its kind', async () => {
    const c = await conversation('Unsubscribe Me');
    await runMessageMails(new Date(Date.now() + 6 * MINUTE));
    const raw = (await readRawOutbox(t)).find(
      (mail) =>
        mail.includes('Subject: New message about Unsubscribe Me') && mail.includes(c.seller.email),
    );
    expect((await clickOneClickUnsubscribe(t, raw!)).statusCode).toBe(200);
    expect((await settingsOf(c.seller)).kinds).toEqual(
      settingsWith((s) => (s.kinds.messages.mail = false)).kinds,
    );

    // A meetup's mail link: only the meetups' mail, the rest as the student chose.
    const student = await createUser(t);
    const chosen = settingsWith((s) => (s.kinds.alerts.mail = false));
    await choose(student, chosen);
    const stop = kindUnsubscribe(t.app.config, student.id, 'meetups', new Date());
    const token = new URL(stop.link).searchParams.get('token')!;
    // Raw: the link's page is HTML, outside the route table.
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`,
    });
    expect(page.body).toContain('meetups');
    const res = await route('POST /api/alerts/unsubscribe', { query: { token }, body: {} });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    expect(dataOf(res)).toMatchObject({ message: 'You will get no more mails about meetups' });
    expect((await settingsOf(student)).kinds).toEqual(
      settingsWith((s) => (s.kinds.meetups.mail = false), chosen).kinds,
    );
  });
});
