import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { alertDeliveries } from '../../db/alerts.schema';
import { alertSuite } from '../../../test/alert-fixtures';
import { campusValues as campus } from '../../../test/campus-values';
import { createUser, TEST_ENGINE } from '../../../test/helpers';
import { listingBody } from '../../../test/listing-fixtures';
import { mailsTo, readOutbox } from '../../../test/outbox';
import { sendPending } from './alerts.delivery';

describe(`alerts: matching and mail (${TEST_ENGINE})`, () => {
  const { w, send, mailDeps, createAlert, work, list } = alertSuite();

  it('mails a matching new listing within the jobs run: cover, title, price, condition, course, link', async () => {
    const { t, seller, buyer } = w;
    await createAlert(buyer, { searchTerm: 'economics', maxPrice: 50 });
    const listing = await list();
    await work();
    const mails = await mailsTo(t, buyer.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe('Listed: Principles of Economics');
    expect(mail!.text).toContain('$40');
    expect(mail!.text).toContain('Good condition');
    expect(mail!.text).toContain(`Course ${campus.subject(0)} 101`);
    expect(mail!.text).toContain(`${t.config.publicUrl}/listing/${listing._id}`);
    expect(mail!.html).toContain(`<img src="${t.config.publicUrl}${listing.imageUrls[0]}"`);
    expect(mail!.text).toContain(`${t.config.publicUrl}/profile/alerts`);
    expect(await mailsTo(t, seller.email)).toHaveLength(0);
  });

  it('matches on every filter field, and only when each set filter holds', async () => {
    const { t } = w;
    // The listing: the campus's first subject, its second major and its second school.
    const cases: [Record<string, unknown>, boolean][] = [
      [{ searchTerm: 'principles econ' }, true],
      [{ searchTerm: 'chemistry' }, false],
      [{ searchTerm: '978-1-285-74155-0' }, true],
      [{ isbn: '1285741552' }, true],
      [{ isbn: '9780262033848' }, false],
      [{ subject: campus.subject(0).toLowerCase(), courseNumber: '101' }, true],
      [{ subject: campus.subject(0), courseNumber: '102' }, false],
      [{ subject: campus.subject(1) }, false],
      [{ major: campus.major(1).value }, true],
      [{ major: campus.major(2).value }, false],
      [{ courseNumber: '101', condition: 'good' }, true],
      [{ courseNumber: '101', condition: 'mint' }, false],
      [{ courseNumber: '101', condition: 'con-all' }, true],
      [{ courseNumber: '101', school: campus.school(1).key }, true],
      [{ courseNumber: '101', school: campus.school(0).key }, false],
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
    const { t, seller, buyer } = w;
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
    const { t, seller, buyer } = w;
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
    const { t, seller, buyer } = w;
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
    const { t, buyer } = w;
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
    const { t, buyer } = w;
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
    const { t, buyer } = w;
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

  it('the outbox is written in the listing’s transaction: no listing, no job', async () => {
    const { t, seller, buyer } = w;
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
