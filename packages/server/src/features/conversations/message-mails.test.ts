import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
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
import { MESSAGE_MAILS_JOB, sendMessageMails } from './message-mails';

const MINUTE = 60_000;
const isMessageMail = (subject: string) => subject.startsWith('New message about');

/**
 * "New message about <book>": one mail per conversation and quiet period, only to a student who
 * has not read it in the app within MESSAGE_MAIL_DELAY_MINUTES; the job runs on the injected clock.
 */
describe(`message mails (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let clock = new Date();
  beforeAll(async () => {
    t = await createTestApp(
      {
        ...GENEROUS_LIMITS,
        RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
        RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
        MESSAGE_MAIL_DELAY_MINUTES: '5',
        MODERATOR_EMAILS: 'mail-moderator@example.edu',
      },
      { now: () => clock },
    );
  });
  afterAll(() => t.close());

  const call = apiCaller(() => t);
  const route = routeCaller(() => t);
  const write = (user: TestUser, id: string, text: string) =>
    route('POST /api/conversations/:id/messages', { as: user, params: { id }, body: { text } });
  /** The user reads the conversation up to its last event. */
  const readAll = async (user: TestUser, id: string) => {
    const view = dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
    await route('POST /api/conversations/:id/read', {
      as: user,
      params: { id },
      body: { upTo: view.lastEventId },
    });
  };
  const mailSetting = async (user: TestUser) =>
    dataOf(await route('GET /api/conversations/mails', { as: user }));

  async function conversation(name = 'Linear Algebra') {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const listingId = (await createListingAs(t, seller, { name }))._id;
    const res = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId, text: 'Still free?' },
    });
    const sent = dataOf(res);
    return { seller, buyer, listingId, id: sent.conversationId };
  }

  /** The job's run at `minutes` after now on its clock (events are written at the real time). */
  async function runAfter(minutes: number) {
    clock = new Date(Date.now() + minutes * MINUTE);
    await sendMessageMails(
      { db: t.app.database.db, mailer: t.app.mailer, log: t.app.log, config: t.app.config },
      clock,
    );
  }
  const messageMailsTo = async (user: TestUser) =>
    (await mailsTo(t, user.email)).filter((m) => isMessageMail(m.subject));

  it('waits for the delay, then mails once per conversation until the student reads it', async () => {
    const c = await conversation();
    await runAfter(1);
    expect(await messageMailsTo(c.seller)).toHaveLength(0);

    await write(c.buyer, c.id, 'Tomorrow at 5?');
    await runAfter(6);
    const [mail, ...more] = await messageMailsTo(c.seller);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('New message about Linear Algebra');
    expect(mail!.text).toContain(`${c.buyer.username} wrote to you about "Linear Algebra"`);
    expect(mail!.text).toContain('> Still free?\n> Tomorrow at 5?');
    expect(mail!.text).toContain(`${t.config.publicUrl}/messages/${c.id}`);
    expect(mail!.text).not.toContain(c.buyer.email);
    // The buyer wrote everything: nothing for them.
    expect(await messageMailsTo(c.buyer)).toHaveLength(0);

    // More messages in the same quiet period: batched, never a mail per message.
    for (const text of ['Hello?', 'Are you there?', 'Last try']) {
      await write(c.buyer, c.id, text);
    }
    await runAfter(20);
    await runAfter(60);
    expect(await messageMailsTo(c.seller)).toHaveLength(1);

    // Once the seller reads and answers, the next quiet period may bring one more mail (to the buyer).
    await readAll(c.seller, c.id);
    await write(c.seller, c.id, 'Yes, 5 works');
    await runAfter(2);
    expect(await messageMailsTo(c.buyer)).toHaveLength(0);
    await runAfter(6);
    const toBuyer = await messageMailsTo(c.buyer);
    expect(toBuyer).toHaveLength(1);
    expect(toBuyer[0]!.text).toContain('> Yes, 5 works');
    expect(toBuyer[0]!.text).not.toContain('Tomorrow at 5?');
    await write(c.buyer, c.id, 'Great');
    await runAfter(30);
    expect(await messageMailsTo(c.seller)).toHaveLength(2);
  });

  it('runs as a recurring job of the job runner', async () => {
    const c = await conversation('Job Runner');
    clock = new Date(Date.now() + 6 * MINUTE);
    await t.app.jobs.runDue();
    const [mail] = await messageMailsTo(c.seller);
    expect(mail?.subject, MESSAGE_MAILS_JOB).toBe('New message about Job Runner');
  });

  it('sends nothing to a student who read it in time', async () => {
    const c = await conversation();
    await readAll(c.seller, c.id);
    await runAfter(30);
    expect(await messageMailsTo(c.seller)).toHaveLength(0);
  });

  it('sends nothing across a block, nor of a suspended student’s messages', async () => {
    const blocked = await conversation();
    await route('POST /api/blocks/:userId', {
      as: blocked.seller,
      params: { userId: blocked.buyer.id },
    });
    const suspended = await conversation();
    const moderator = await createUser(t, { email: 'mail-moderator@example.edu' });
    await route('POST /api/moderation/users/:userId/suspend', {
      as: moderator,
      params: { userId: suspended.buyer.id },
      body: { reason: 'Spam' },
    });
    await runAfter(30);
    expect(await messageMailsTo(blocked.seller)).toHaveLength(0);
    expect(await messageMailsTo(suspended.seller)).toHaveLength(0);
  });

  it('turns off with the profile toggle, and with the one-click unsubscribe (RFC 8058)', async () => {
    const c = await conversation('Microeconomics');
    expect(await mailSetting(c.seller)).toEqual({ messageMails: true });
    await runAfter(6);
    expect(await messageMailsTo(c.seller)).toHaveLength(1);

    const raw = (await readRawOutbox(t)).find(
      (r) => r.includes('Microeconomics') && r.includes('New message'),
    )!;
    const res = await clickOneClickUnsubscribe(t, raw);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/messages/);
    expect(await mailSetting(c.seller)).toEqual({ messageMails: false });

    // Read, then a new message: no mail while it is off.
    await readAll(c.seller, c.id);
    await write(c.buyer, c.id, 'Hello again');
    await runAfter(30);
    expect(await messageMailsTo(c.seller)).toHaveLength(1);

    // Back on from the profile: the next run mails.
    const on = await route('POST /api/conversations/mails', {
      as: c.seller,
      body: { messageMails: true },
    });
    expect(on).toMatchObject({ status: 200, data: { success: true, messageMails: true } });
    await runAfter(31);
    expect(await messageMailsTo(c.seller)).toHaveLength(2);
    expect(
      (await call(c.seller, 'POST', '/api/conversations/mails', { messageMails: 'no' })).statusCode,
    ).toBe(400);
  });
});
