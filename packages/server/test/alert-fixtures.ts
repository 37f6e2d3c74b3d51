import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { apiCaller, routeCaller } from './api-caller';
import { GENEROUS_LIMITS } from './accounts';
import { createTestApp, createUser, type TestApp, type TestUser } from './helpers';
import { campusValues } from './campus-values';
import { createListingAs } from './listing-fixtures';

const CALCULUS_ISBN = '9781285741550';

/** An alert suite's app and seller (for the file), and its buyer (a new one for each test). */
export interface AlertWorld {
  t: TestApp;
  seller: TestUser;
  buyer: TestUser;
}

/**
 * Sets up an alert suite with its hooks (the tests read `w` when they run) and gives the helpers
 * the alert suites share.
 */
export function alertSuite() {
  const w = {} as AlertWorld;
  beforeAll(async () => {
    w.t = await createTestApp(GENEROUS_LIMITS);
    w.seller = await createUser(w.t);
  });
  afterAll(() => w.t.close());
  beforeEach(async () => {
    w.buyer = await createUser(w.t);
  });

  const send = apiCaller(() => w.t);
  const route = routeCaller(() => w.t);
  return {
    w,
    send,
    /** What the alert sender takes from the app. */
    mailDeps: () => ({ db: w.t.app.database.db, mailer: w.t.app.mailer, config: w.t.app.config }),
    createAlert: async (
      user: TestUser,
      body: ApiCallOptions<'POST /api/alerts/create'>['body'],
    ) => {
      const res = await route('POST /api/alerts/create', { as: user, body });
      expect(res.status, res.ok ? '' : res.text).toBe(201);
      return dataOf(res);
    },
    /** Runs every due job (the matching, then the mails it asks for). */
    work: () => w.t.app.jobs.runDue(),
    /**
     * The seller (or `by`) lists a book unless overridden: a textbook of the test campus's first
     * subject, 101, for its second major and its second school (listingBody's).
     */
    list: (overrides: Record<string, unknown> = {}, by = w.seller) =>
      createListingAs(w.t, by, {
        name: 'Principles of Economics',
        subject: campusValues.subject(0),
        courseNumber: '101',
        regularPrice: 40,
        condition: 'good',
        major: campusValues.major(1).value,
        isbn: CALCULUS_ISBN,
        ...overrides,
      }),
  };
}
