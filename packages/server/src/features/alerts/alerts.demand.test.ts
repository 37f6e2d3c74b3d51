import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { pageDemand } from './alerts.demand';

describe(`alerts: demand sellers can see (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  const alert = async (cookie: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie },
      payload,
    });
    expect(res.statusCode).toBe(201);
  };
  const demand = async (query: string) => t.app.inject(`/api/alerts/demand?${query}`);

  it('counts students with live alerts or saves, each once, naming nobody', async () => {
    const seller = await createUser(t);
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    expect((await demand('subject=HIST&courseNumber=205')).json()).toEqual({
      success: true,
      students: 0,
    });
    await alert(a.cookie, { subject: 'HIST', courseNumber: '205' });
    await alert(a.cookie, { subject: 'HIST', courseNumber: '205', maxPrice: 10 });
    await alert(b.cookie, { subject: 'hist', courseNumber: '205', paused: true });
    const listing = await createListingAs(t, seller, {
      subject: 'HIST',
      courseNumber: '205',
      isbn: '9780262033848',
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/saved/add/${listing._id}`,
      headers: { cookie: c.cookie },
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/saved/add/${listing._id}`,
      headers: { cookie: a.cookie },
    });
    const course = await demand('subject=hist&courseNumber=205');
    expect(course.json()).toEqual({ success: true, students: 2 });
    expect(course.body).not.toContain(a.id);
    expect((await demand('isbn=0-262-03384-4')).json()).toEqual({ success: true, students: 2 });

    // A server-rendered page's demand line carries the count the route would answer, or none where
    // the route would refuse the question.
    const asks = [
      { isbn: '0-262-03384-4' },
      { isbn: '9780262033848', subject: 'ZZZ', courseNumber: '1' },
      { subject: 'hist', courseNumber: ' 205 ' },
      { subject: 'ZZZ', courseNumber: '205' },
      { isbn: 'not-an-isbn' },
      { subject: 'HIST', courseNumber: '' },
      {},
    ];
    for (const asked of asks) {
      const query = asked.isbn
        ? `isbn=${encodeURIComponent(asked.isbn)}`
        : `subject=${asked.subject ?? ''}&courseNumber=${encodeURIComponent(asked.courseNumber ?? '')}`;
      const answer = await demand(query);
      const counted = await pageDemand(t.app.database.db, asked);
      expect(counted, query).toBe(answer.statusCode === 200 ? answer.json().students : null);
    }

    const wanted = (await t.app.inject('/api/alerts/most-wanted')).json();
    expect(wanted.courses[0]).toEqual({
      subject: 'HIST',
      courseNumber: '205',
      students: 1,
      listings: 1,
    });
  });

  it('refuses bad questions with a 400', async () => {
    for (const query of ['', 'subject=HIST', 'isbn=123', 'subject=ZZZ&courseNumber=1', 'who=1']) {
      expect((await demand(query)).statusCode, query).toBe(400);
    }
  });
});
