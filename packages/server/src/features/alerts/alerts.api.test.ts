import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ALERT_MESSAGES, MAX_ALERTS_PER_USER } from '@campus-books/common/alert.schemas';
import { alerts } from '../../db/alerts.schema';
import { alertSuite } from '../../../test/alert-fixtures';
import { campusValues as campus } from '../../../test/campus-values';
import { createUser, TEST_ENGINE } from '../../../test/helpers';
import { mailsTo } from '../../../test/outbox';

/** /api/alerts: each student's own alerts, listed, edited and deleted. */
describe(`alerts: the API (${TEST_ENGINE})`, () => {
  const { w, send, createAlert, work, list } = alertSuite();

  it('lists, edits and deletes only the caller’s alerts', async () => {
    const { t, buyer } = w;
    const mine = await createAlert(buyer, {
      subject: campus.subject(0).toLowerCase(),
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
        subject: campus.subject(0),
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
    const { t, buyer } = w;
    const mine = await createAlert(buyer, { courseNumber: '431', maxPrice: 20 });
    const edit = {
      searchTerm: 'economics',
      isbn: '0-262-03384-4',
      subject: campus.subject(0).toLowerCase(),
      courseNumber: '432',
      major: campus.major(1).value,
      condition: 'good',
      school: campus.school(1).key,
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
      subject: campus.subject(0),
      courseNumber: '432',
      major: campus.major(1).value,
      condition: 'good',
      school: campus.school(1).key,
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
    const { t, buyer } = w;
    const first = await createAlert(buyer, {
      subject: campus.subject(0),
      courseNumber: '101',
      maxPrice: 30,
    });
    const second = await createAlert(buyer, { courseNumber: '202' });
    const dup = await send(buyer, 'POST', `/api/alerts/update/${second._id}`, {
      subject: campus.subject(0).toLowerCase(),
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
      subject: campus.subject(0),
      courseNumber: '101',
      maxPrice: 30,
      paused: true,
    });
    expect(pause.statusCode, pause.body).toBe(200);
    // Another student's identical alert is no duplicate.
    const other = await createUser(t);
    const theirs = await createAlert(other, { courseNumber: '303' });
    const same = await send(other, 'POST', `/api/alerts/update/${theirs._id}`, {
      subject: campus.subject(0),
      courseNumber: '101',
      maxPrice: 30,
    });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('alerts edited at once to the same filters: one is saved, the others hear 409', async () => {
    const { t, buyer } = w;
    const mine = [];
    for (let i = 0; i < 8; i += 1) mine.push(await createAlert(buyer, { courseNumber: `70${i}` }));
    const same = { subject: campus.subject(1), courseNumber: '211', maxPrice: 25 };
    const answers = await Promise.all(
      mine.map((alert) => send(buyer, 'POST', `/api/alerts/update/${alert._id}`, same)),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(mine.length - 1);
    const rows = await t.database.db.select().from(alerts).where(eq(alerts.userId, buyer.id));
    expect(rows.filter((r) => r.courseNumber === '211')).toHaveLength(1);
  });

  it('refuses a bad edit with a 400 and leaves the alert as it was', async () => {
    const { t, seller, buyer } = w;
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
    const { t, seller, buyer } = w;
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
    const { t } = w;
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
    const { t, buyer } = w;
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
