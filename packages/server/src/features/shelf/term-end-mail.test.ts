import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_MESSAGES } from '@campus-books/common/alert.schemas';
import { listings } from '../../db/schema';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { clickOneClickUnsubscribe, mailsTo, readRawOutbox } from '../../../test/outbox';
import { sendTermEndMails, termEndingAt } from './term-end-mail';

const SUBJECT = 'Term is ending: sell your books to the students who need them';
/** The end-of-term mails to one address (other mails, such as expiry reminders, left out). */
const termEndMailsTo = async (t: TestApp, address: string) =>
  (await mailsTo(t, address)).filter((m) => m.subject === SUBJECT);

let clock = new Date('2027-04-20T15:00:00Z');

describe(`the end-of-term mail (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let notSubscribed: TestUser;
  let nothingToSell: TestUser;
  const deps = () => ({
    db: t.app.database.db,
    mailer: t.app.mailer,
    log: t.app.log,
    config: t.app.config,
  });
  const subscribe = (user: TestUser, subscribed: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/term-end-mail',
      headers: { cookie: user.cookie },
      payload: { subscribed },
    });

  beforeAll(async () => {
    t = await createTestApp(
      { ...GENEROUS_LIMITS, TERM_END_DATES: '2026-12-18, 2027-05-08' },
      { now: () => clock },
    );
    seller = await createUser(t);
    buyer = await createUser(t);
    notSubscribed = await createUser(t);
    nothingToSell = await createUser(t);
    const wanting = await createUser(t);
    for (const user of [seller, buyer, nothingToSell]) {
      expect((await subscribe(user, true)).statusCode).toBe(200);
    }
    await createListingAs(t, seller, { subject: 'ECON', courseNumber: '101', name: 'Econ One' });
    await createListingAs(t, notSubscribed, { subject: 'ECON', courseNumber: '101' });
    // The buyer bought a CHEM 205 book this term.
    const bought = await createListingAs(t, notSubscribed, {
      subject: 'CHEM',
      courseNumber: '205',
    });
    await t.database.db
      .update(listings)
      .set({ status: 'sold', soldTo: buyer.id, soldAt: clock })
      .where(eq(listings.id, bought._id));
    // Demand: a student's alerts for both courses.
    for (const [subject, courseNumber] of [
      ['ECON', '101'],
      ['CHEM', '205'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/alerts/create',
        headers: { cookie: wanting.cookie },
        payload: { subject, courseNumber },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('is off until the student turns it on; the setting is checked', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/term-end-mail',
      headers: { cookie: notSubscribed.cookie },
    });
    expect(res.json()).toMatchObject({ subscribed: false });
    expect((await subscribe(notSubscribed, 'yes')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/term-end-mail' })).statusCode).toBe(401);
  });

  it('knows the last week of a term and when the term began', () => {
    const ends = t.config.trust.termEnds;
    expect(termEndingAt(ends, new Date('2027-04-20T12:00:00Z'))).toBeNull();
    // The ends of those days in New York (the default CAMPUS_TIME_ZONE): EST in December, EDT in May.
    expect(termEndingAt(ends, new Date('2027-05-03T12:00:00Z'))).toEqual({
      end: { date: '2027-05-08', endsAt: new Date('2027-05-09T03:59:59Z') },
      start: new Date('2026-12-19T04:59:59Z'),
    });
    // The evening of the last day on campus is still in the term's last week.
    expect(termEndingAt(ends, new Date('2027-05-09T02:00:00Z'))?.end.date).toBe('2027-05-08');
    expect(termEndingAt(ends, new Date('2027-05-09T12:00:00Z'))).toBeNull();
  });

  it('goes once per term to subscribers who list or bought, even when two servers run it at once', async () => {
    await t.app.jobs.runDue();
    expect(await sendTermEndMails(deps(), clock)).toBe(0);
    expect(await termEndMailsTo(t, seller.email)).toHaveLength(0);

    clock = new Date('2027-05-03T12:00:00Z');
    const counts = await Promise.all([
      sendTermEndMails(deps(), clock),
      sendTermEndMails(deps(), clock),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    await t.app.jobs.runDue();
    clock = new Date('2027-05-05T12:00:00Z');
    expect(await sendTermEndMails(deps(), clock)).toBe(0);

    const [toSeller, ...more] = await termEndMailsTo(t, seller.email);
    expect(more).toHaveLength(0);
    expect(toSeller?.text).toContain('ECON 101: 1 student wants books');
    expect(toSeller?.text).toContain(`${t.config.publicUrl}/sell-my-shelf`);
    const [toBuyer] = await termEndMailsTo(t, buyer.email);
    expect(toBuyer?.text).toContain('CHEM 205: 1 student wants books');
    expect(await termEndMailsTo(t, notSubscribed.email)).toHaveLength(0);
    expect(await termEndMailsTo(t, nothingToSell.email)).toHaveLength(0);
  });

  it("stops with the mail's one-click unsubscribe (RFC 8058)", async () => {
    const raw = (await readRawOutbox(t)).find(
      (r) => r.toLowerCase().includes(seller.email.toLowerCase()) && r.includes('Term is ending'),
    )!;
    const res = await clickOneClickUnsubscribe(t, raw);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(ALERT_MESSAGES.unsubscribedTermEnd);
    const now = await t.app.inject({
      method: 'GET',
      url: '/api/term-end-mail',
      headers: { cookie: seller.cookie },
    });
    expect(now.json()).toMatchObject({ subscribed: false });
  });
});
