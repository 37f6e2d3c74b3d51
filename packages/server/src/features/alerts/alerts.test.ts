import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_MESSAGES, MAX_ALERTS_PER_USER } from '@campus-books/common/alert.schemas';
import { alertDeliveries, alerts } from '../../db/schema';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import {
  clickOneClickUnsubscribe,
  mailsTo,
  oneClickUnsubscribeUrl,
  readOutbox,
  readRawOutbox,
} from '../../../test/outbox';
import { sendPending } from './alerts.delivery';
import { signUnsubscribeToken } from './unsubscribe-token';

const CALCULUS_ISBN = '9781285741550';

describe(`alerts: matching and mail (${TEST_ENGINE})`, () => {
  let t: TestApp;
  const mailDeps = () => ({ db: t.app.database.db, mailer: t.app.mailer, config: t.app.config });
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  const send = (user: TestUser, method: 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: user.cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const createAlert = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await send(user, 'POST', '/api/alerts/create', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { _id: string };
  };
  /** Runs every due job (the matching, then the mails it asks for). */
  const work = () => t.app.jobs.runDue();
  const list = (overrides: Record<string, unknown> = {}, by = seller) =>
    createListingAs(t, by, {
      name: 'Principles of Economics',
      subject: 'ECON',
      courseNumber: '101',
      regularPrice: 40,
      condition: 'good',
      major: 'Economics Business',
      Bschool: true,
      isbn: CALCULUS_ISBN,
      ...overrides,
    });

  let buyer: TestUser;
  beforeEach(async () => {
    buyer = await createUser(t);
  });

  it('mails a matching new listing within the jobs run: cover, title, price, condition, course, link', async () => {
    await createAlert(buyer, { searchTerm: 'economics', maxPrice: 50 });
    const listing = await list();
    await work();
    const mails = await mailsTo(t, buyer.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe('Listed: Principles of Economics');
    expect(mail!.text).toContain('$40');
    expect(mail!.text).toContain('Good condition');
    expect(mail!.text).toContain('Course ECON 101');
    expect(mail!.text).toContain(`${t.config.publicUrl}/listing/${listing._id}`);
    expect(mail!.html).toContain(`<img src="${t.config.publicUrl}${listing.imageUrls[0]}"`);
    expect(mail!.text).toContain(`${t.config.publicUrl}/profile/alerts`);
    expect(await mailsTo(t, seller.email)).toHaveLength(0);
  });

  it('matches on every filter field, and only when each set filter holds', async () => {
    const cases: [Record<string, unknown>, boolean][] = [
      [{ searchTerm: 'principles econ' }, true],
      [{ searchTerm: 'chemistry' }, false],
      [{ searchTerm: '978-1-285-74155-0' }, true],
      [{ isbn: '1285741552' }, true],
      [{ isbn: '9780262033848' }, false],
      [{ subject: 'econ', courseNumber: '101' }, true],
      [{ subject: 'ECON', courseNumber: '102' }, false],
      [{ subject: 'MATH' }, false],
      [{ major: 'Economics Business' }, true],
      [{ major: 'Mathematics' }, false],
      [{ courseNumber: '101', condition: 'good' }, true],
      [{ courseNumber: '101', condition: 'mint' }, false],
      [{ courseNumber: '101', condition: 'con-all' }, true],
      [{ courseNumber: '101', school: 'Bschool' }, true],
      [{ courseNumber: '101', school: 'Jepson' }, false],
      [{ courseNumber: '101', maxPrice: 40 }, true],
      [{ courseNumber: '101', maxPrice: 39.99 }, false],
    ];
    const buyers = await Promise.all(cases.map(() => createUser(t)));
    for (const [i, [body]] of cases.entries()) await createAlert(buyers[i]!, body);
    await list();
    await work();
    const got = await Promise.all(buyers.map(async (b) => (await mailsTo(t, b.email)).length));
    expect(got).toEqual(cases.map(([, matches]) => (matches ? 1 : 0)));
  });

  it('never mails the seller their own listing, nor paused or deleted alerts', async () => {
    await createAlert(seller, { courseNumber: '777' });
    const paused = await createAlert(buyer, { courseNumber: '777', paused: true });
    const other = await createUser(t);
    const deleted = await createAlert(other, { courseNumber: '777' });
    expect((await send(other, 'DELETE', `/api/alerts/delete/${deleted._id}`)).statusCode).toBe(200);
    await list({ courseNumber: '777' });
    await work();
    expect(await mailsTo(t, seller.email)).toHaveLength(0);
    expect(await mailsTo(t, buyer.email)).toHaveLength(0);
    expect(await mailsTo(t, other.email)).toHaveLength(0);

    // Resumed, the alert hears of the next listing.
    const resumed = await send(buyer, 'POST', `/api/alerts/update/${paused._id}`, {
      courseNumber: '777',
      paused: false,
    });
    expect(resumed.statusCode).toBe(200);
    await list({ courseNumber: '777' });
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
  });

  it('a price drop under the maximum mails once; a later drop or a relist mails nothing more', async () => {
    await createAlert(buyer, { courseNumber: '555', maxPrice: 25 });
    const listing = await list({ courseNumber: '555', regularPrice: 30 });
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(0);

    const update = (price: number) =>
      send(seller, 'POST', `/api/listing/update/${listing._id}`, {
        ...listingBody({ courseNumber: '555', imageUrls: listing.imageUrls }),
        regularPrice: price,
      });
    expect((await update(20)).statusCode).toBe(200);
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);

    expect((await update(15)).statusCode).toBe(200);
    await send(seller, 'POST', `/api/listing/mark-as-sold/${listing._id}`);
    await send(seller, 'POST', `/api/listing/relist/${listing._id}`);
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
  });

  it('a relisted listing mails the alerts made while it was sold', async () => {
    const listing = await list({ courseNumber: '556' });
    await work();
    await send(seller, 'POST', `/api/listing/mark-as-sold/${listing._id}`);
    await createAlert(buyer, { courseNumber: '556' });
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(0);
    await send(seller, 'POST', `/api/listing/relist/${listing._id}`);
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
  });

  it('several matches waiting for one student go out as one mail', async () => {
    await createAlert(buyer, { courseNumber: '557' });
    await createAlert(buyer, { searchTerm: 'thermodynamics' });
    await list({ courseNumber: '557', name: 'Thermodynamics' });
    await list({ courseNumber: '557', name: 'Heat and Thermodynamics' });
    await list({ courseNumber: '999', name: 'Thermodynamics, 2nd' });
    await work();
    const mails = await mailsTo(t, buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('3 new listings match your alerts');
  });

  it('a daily digest alert waits for the daily run', async () => {
    await createAlert(buyer, { courseNumber: '558', digest: true });
    await list({ courseNumber: '558' });
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(0);
    await sendPending(mailDeps(), { now: new Date(), digest: true });
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
    await sendPending(mailDeps(), { now: new Date(), digest: true });
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
  });

  it('a sender killed mid-batch mails nobody twice: what was sent stays sent, the rest goes later', async () => {
    const buyers = [buyer, await createUser(t), await createUser(t)];
    for (const b of buyers) await createAlert(b, { courseNumber: '559' });
    const realSend = t.app.mailer.send;
    let calls = 0;
    t.app.mailer.send = async (mail) => {
      calls += 1;
      if (calls === 2) throw new Error('the process died here');
      return realSend(mail);
    };
    try {
      // Nothing but this test's alerts matches it.
      await list({
        courseNumber: '559',
        name: 'Quantum Fields',
        isbn: null,
        major: '',
        subject: null,
      });
      await work(); // the send job fails after one mail and is retried later
    } finally {
      t.app.mailer.send = realSend;
    }
    const after = async () =>
      Promise.all(buyers.map(async (b) => (await mailsTo(t, b.email)).length));
    expect((await after()).reduce((a, b) => a + b)).toBe(1);
    // The retry (or the minute's sweep) sends the rest; the matching job run again adds nothing.
    await sendPending(mailDeps(), { now: new Date(), digest: false });
    expect(await after()).toEqual([1, 1, 1]);
    const [row] = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.userId, buyer.id));
    const { matchListingEvent } = await import('./alerts.delivery');
    await matchListingEvent(
      { db: t.app.database.db, jobs: t.app.jobs },
      { listingId: row!.listingId, event: 'created' },
    );
    await sendPending(mailDeps(), { now: new Date(), digest: false });
    expect(await after()).toEqual([1, 1, 1]);
  });

  describe('unsubscribe', () => {
    const rawOutbox = async (address: string) =>
      (await readRawOutbox(t))
        .filter((r) => r.toLowerCase().includes(address.toLowerCase()))
        .at(-1)!;

    it('every alert mail carries RFC 8058 headers; one click stops the alert, again changes nothing', async () => {
      const alert = await createAlert(buyer, { courseNumber: '560' });
      await list({ courseNumber: '560' });
      await work();
      const raw = await rawOutbox(buyer.email);
      expect(oneClickUnsubscribeUrl(raw).origin).toBe(new URL(t.config.publicUrl).origin);

      const click = () => clickOneClickUnsubscribe(t, raw);
      const first = await click();
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().message).toBe(ALERT_MESSAGES.unsubscribed);
      expect(await t.database.db.select().from(alerts).where(eq(alerts.id, alert._id))).toEqual([]);
      expect((await click()).statusCode).toBe(200);

      await list({ courseNumber: '560' });
      await work();
      expect(await mailsTo(t, buyer.email)).toHaveLength(1);
    });

    it('refuses forged and expired tokens with 400 and deletes nothing', async () => {
      const alert = await createAlert(buyer, { courseNumber: '561' });
      const secret = t.config.sessionSecret;
      const good = signUnsubscribeToken(secret, buyer.id, [alert._id], new Date());
      const forged = signUnsubscribeToken('another secret', buyer.id, [alert._id], new Date());
      const tampered = `${signUnsubscribeToken(secret, seller.id, [alert._id], new Date()).split('.')[0]}.${good.split('.')[1]}`;
      const expired = signUnsubscribeToken(secret, buyer.id, [alert._id], new Date('2020-01-01'));
      for (const token of [forged, tampered, expired, 'garbage', '']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/alerts/unsubscribe',
          payload: { token },
        });
        expect(res.statusCode, token).toBe(400);
        expect(res.json()).toEqual({
          success: false,
          statusCode: 400,
          message: ALERT_MESSAGES.badUnsubscribe,
        });
      }
      expect(
        await t.database.db.select().from(alerts).where(eq(alerts.id, alert._id)),
      ).toHaveLength(1);
      // A token names its owner: another student's token cannot stop this alert.
      const others = signUnsubscribeToken(secret, seller.id, [alert._id], new Date());
      await t.app.inject({
        method: 'POST',
        url: '/api/alerts/unsubscribe',
        payload: { token: others },
      });
      expect(
        await t.database.db.select().from(alerts).where(eq(alerts.id, alert._id)),
      ).toHaveLength(1);
    });

    it('other routes still refuse form bodies and foreign origins', async () => {
      const form = await t.app.inject({
        method: 'POST',
        url: '/api/alerts/create',
        headers: { cookie: buyer.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'courseNumber=101',
      });
      expect(form.statusCode).toBe(415);
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/alerts/create',
        headers: { cookie: buyer.cookie, origin: 'https://evil.example' },
        payload: { courseNumber: '101' },
      });
      expect(foreign.statusCode).toBe(403);
    });
  });

  describe('the alerts API', () => {
    it('lists, edits and deletes only the caller’s alerts', async () => {
      const mine = await createAlert(buyer, {
        subject: 'econ',
        courseNumber: ' 101 ',
        maxPrice: 12.5,
      });
      const listed = await t.app.inject({
        url: '/api/alerts/get',
        headers: { cookie: buyer.cookie },
      });
      expect(listed.json()).toEqual([
        expect.objectContaining({
          _id: mine._id,
          subject: 'ECON',
          courseNumber: '101',
          maxPrice: 12.5,
          digest: false,
          paused: false,
        }),
      ]);
      const other = await createUser(t);
      expect((await send(other, 'DELETE', `/api/alerts/delete/${mine._id}`)).statusCode).toBe(404);
      expect(
        (await send(other, 'POST', `/api/alerts/update/${mine._id}`, { courseNumber: '1' }))
          .statusCode,
      ).toBe(404);
      expect((await send(buyer, 'DELETE', '/api/alerts/delete/not-a-uuid')).statusCode).toBe(404);
      expect((await send(buyer, 'DELETE', `/api/alerts/delete/${mine._id}`)).statusCode).toBe(200);
      expect((await send(buyer, 'DELETE', `/api/alerts/delete/${mine._id}`)).statusCode).toBe(404);
    });

    it('edits every filter of an alert, and the next listing is matched on the new ones', async () => {
      const mine = await createAlert(buyer, { courseNumber: '431', maxPrice: 20 });
      const edit = {
        searchTerm: 'economics',
        isbn: '0-262-03384-4',
        subject: 'econ',
        courseNumber: '432',
        major: 'Economics Business',
        condition: 'good',
        school: 'Bschool',
        maxPrice: 45.5,
        digest: false,
        paused: false,
      };
      const res = await send(buyer, 'POST', `/api/alerts/update/${mine._id}`, edit);
      expect(res.statusCode, res.body).toBe(200);
      const saved = {
        _id: mine._id,
        searchTerm: 'economics',
        isbn: '9780262033848',
        subject: 'ECON',
        courseNumber: '432',
        major: 'Economics Business',
        condition: 'good',
        school: 'Bschool',
        maxPrice: 45.5,
        digest: false,
        paused: false,
      };
      expect(res.json()).toMatchObject({ success: true, message: 'Alert updated', ...saved });
      const listed = await t.app.inject({
        url: '/api/alerts/get',
        headers: { cookie: buyer.cookie },
      });
      expect(listed.json()).toEqual([expect.objectContaining(saved)]);

      // Only the price changes now: a listing at 30 was above the old maximum, not the new one.
      const priceOnly = await send(buyer, 'POST', `/api/alerts/update/${mine._id}`, {
        courseNumber: '433',
        maxPrice: 30,
      });
      expect(priceOnly.statusCode, priceOnly.body).toBe(200);
      await list({ courseNumber: '433', regularPrice: 30 });
      await list({ courseNumber: '433', regularPrice: 31 });
      await work();
      expect(await mailsTo(t, buyer.email)).toHaveLength(1);
    });

    it('an edit that would duplicate another alert is a 409 and changes nothing', async () => {
      const first = await createAlert(buyer, {
        subject: 'ECON',
        courseNumber: '101',
        maxPrice: 30,
      });
      const second = await createAlert(buyer, { courseNumber: '202' });
      const dup = await send(buyer, 'POST', `/api/alerts/update/${second._id}`, {
        subject: 'econ',
        courseNumber: '101',
        maxPrice: 30,
        digest: true,
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ success: false, message: ALERT_MESSAGES.duplicate });
      const [row] = await t.database.db.select().from(alerts).where(eq(alerts.id, second._id));
      expect(row).toMatchObject({ courseNumber: '202', subject: null, digest: false });
      // Saving an alert with its own filters (a pause, a digest) is never a duplicate of itself.
      const pause = await send(buyer, 'POST', `/api/alerts/update/${first._id}`, {
        subject: 'ECON',
        courseNumber: '101',
        maxPrice: 30,
        paused: true,
      });
      expect(pause.statusCode, pause.body).toBe(200);
      // Another student's identical alert is no duplicate.
      const other = await createUser(t);
      const theirs = await createAlert(other, { courseNumber: '303' });
      const same = await send(other, 'POST', `/api/alerts/update/${theirs._id}`, {
        subject: 'ECON',
        courseNumber: '101',
        maxPrice: 30,
      });
      expect(same.statusCode, same.body).toBe(200);
    });

    it('alerts edited at once to the same filters: one is saved, the others hear 409', async () => {
      const mine = [];
      for (let i = 0; i < 8; i += 1)
        mine.push(await createAlert(buyer, { courseNumber: `70${i}` }));
      const same = { subject: 'MATH', courseNumber: '211', maxPrice: 25 };
      const answers = await Promise.all(
        mine.map((alert) => send(buyer, 'POST', `/api/alerts/update/${alert._id}`, same)),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(mine.length - 1);
      const rows = await t.database.db.select().from(alerts).where(eq(alerts.userId, buyer.id));
      expect(rows.filter((r) => r.courseNumber === '211')).toHaveLength(1);
    });

    it('refuses a bad edit with a 400 and leaves the alert as it was', async () => {
      const mine = await createAlert(buyer, { courseNumber: '101', maxPrice: 20 });
      const bodies = [
        {},
        { maxPrice: 10 },
        { courseNumber: '', searchTerm: ' ' },
        { courseNumber: '101', maxPrice: -5 },
        { courseNumber: '101', maxPrice: 10.005 },
        { courseNumber: '101', maxPrice: '10' },
        { courseNumber: '101', condition: 'shiny' },
        { courseNumber: '101', isbn: '123' },
        { courseNumber: '101', userId: seller.id },
      ];
      for (const body of bodies) {
        const res = await send(buyer, 'POST', `/api/alerts/update/${mine._id}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().success).toBe(false);
      }
      const [row] = await t.database.db.select().from(alerts).where(eq(alerts.id, mine._id));
      expect(row).toMatchObject({ courseNumber: '101', maxPrice: 20, userId: buyer.id });
      expect(
        (await send(buyer, 'POST', `/api/alerts/update/not-a-uuid`, { courseNumber: '1' }))
          .statusCode,
      ).toBe(404);
    });

    it('refuses bad input with a 400 and writes nothing', async () => {
      const bodies = [
        {},
        { condition: 'good' },
        { searchTerm: '   ' },
        { isbn: '9781285741551' },
        { subject: 'ZZZZ' },
        { major: 'Astrology' },
        { courseNumber: '101', maxPrice: -1 },
        { courseNumber: '101', maxPrice: 1.001 },
        { courseNumber: '101', maxPrice: '12' },
        { courseNumber: '101', school: 'Hogwarts' },
        { courseNumber: '101', userId: seller.id },
        { searchTerm: 'x'.repeat(101) },
      ];
      for (const body of bodies) {
        const res = await send(buyer, 'POST', '/api/alerts/create', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().success).toBe(false);
      }
      expect(await t.database.db.select().from(alerts).where(eq(alerts.userId, buyer.id))).toEqual(
        [],
      );
    });

    it('signed-in, verified students only', async () => {
      const signedOut = await t.app.inject({
        method: 'POST',
        url: '/api/alerts/create',
        payload: { courseNumber: '101' },
      });
      expect(signedOut.statusCode).toBe(401);
      const unverified = await createUser(t, { verified: false });
      expect(
        (await send(unverified, 'POST', '/api/alerts/create', { courseNumber: '101' })).statusCode,
      ).toBe(403);
      expect((await t.app.inject('/api/alerts/get')).statusCode).toBe(401);
    });

    it(`keeps at most ${MAX_ALERTS_PER_USER} alerts per student`, async () => {
      for (let i = 0; i < MAX_ALERTS_PER_USER; i += 1) {
        await createAlert(buyer, { courseNumber: String(100 + i) });
      }
      const over = await send(buyer, 'POST', '/api/alerts/create', { courseNumber: '999' });
      expect(over.statusCode).toBe(409);
      expect(over.json().message).toBe(ALERT_MESSAGES.tooMany);
      const rows = await t.database.db.select().from(alerts).where(eq(alerts.userId, buyer.id));
      expect(rows).toHaveLength(MAX_ALERTS_PER_USER);
    });
  });

  it('the outbox is written in the listing’s transaction: no listing, no job', async () => {
    await createAlert(buyer, { courseNumber: '562' });
    const before = (await readOutbox(t)).length;
    const bad = await send(
      seller,
      'POST',
      '/api/listing/create',
      listingBody({ courseNumber: '562', imageUrls: ['https://elsewhere.example/x.jpg'] }),
    );
    expect(bad.statusCode).toBe(400);
    await work();
    expect((await readOutbox(t)).length).toBe(before);
  });
});
