import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../helpers';
import { startFakeBookProviders, type FakeBookProviders } from '../support/fake-book-providers';
import { ACCOUNT_SCENARIOS } from './account-scenarios';
import { checkAnswer } from './check-answer';
import { CONVERSATION_SCENARIOS } from './conversation-scenarios';
import { COPIES, type Scenario } from './duplicate-scenario';
import { LISTING_SCENARIOS } from './listing-scenarios';
import { MODERATION_SCENARIOS } from './moderation-scenarios';
import { ROUND3_SCENARIOS } from './round3-scenarios';
import { createAttackWorld, isStateChanging, type AttackWorld } from './route-fixtures';
import { printFigure, type RouteEntry } from './security-helpers';
import { STUDENT_SCENARIOS } from './student-scenarios';
import { UPLOAD_SCENARIOS } from './upload-scenarios';

/**
 * One scenario for every state-changing route: the request a real client would send, sent COPIES
 * times at once, and what must hold afterwards (the tables are by area, *-scenarios.ts). A route
 * the app gains later fails the coverage test below until it has a scenario.
 */
const SCENARIOS: Record<string, Scenario> = {
  ...ACCOUNT_SCENARIOS,
  ...LISTING_SCENARIOS,
  ...STUDENT_SCENARIOS,
  ...MODERATION_SCENARIOS,
  ...UPLOAD_SCENARIOS,
  // Conversations, offers, holds and blocks (issue 28).
  ...CONVERSATION_SCENARIOS,
  ...ROUND3_SCENARIOS,
};

/** State-changing routes a duplicate cannot reach from a test client, and why. */
const NOT_DUPLICATED: Record<string, string> = {
  'POST /api/admin/backup':
    'loopback only, one at a time by design (409); covered by ops/backup-live.test.ts',
};

/**
 * Round 3's routes whose 25 parallel copies are sent by their own feature's tests (each reason names
 * the file), with the fixtures those need; the other round-3 routes are in round3-scenarios.ts.
 */
const SCENARIO_NOT_YET_HERE: Record<string, string> = {
  'POST /api/push/subscriptions': 'features/push/push.test.ts sends 25 parallel subscribes',
  'POST /api/my-courses/add': 'features/my-courses/my-courses.routes.test.ts sends 25 adds',
  'POST /api/my-courses/notify': 'features/my-courses/my-courses.routes.test.ts sends 25 presses',
  'POST /api/meetups/:id/accept': 'features/meetups/meetups.test.ts sends 25 parallel accepts',
  'POST /api/drafts/publish': 'features/shelf/drafts.test.ts sends 25 parallel publishes',
  'PUT /api/drafts/:id': 'features/shelf/drafts.test.ts sends one draft 25 times at once',
  'POST /api/ratings/exchanges/:id': 'features/ratings/ratings.test.ts sends 25 parallel ratings',
};

describe(`${COPIES} concurrent copies of every state-changing request (${TEST_ENGINE})`, () => {
  let w: AttackWorld;
  let bookProviders: FakeBookProviders;
  const figures = { routes: 0, requests: 0, answers5xx: 0 };
  beforeAll(async () => {
    bookProviders = await startFakeBookProviders();
    w = await createAttackWorld(bookProviders.env);
  });
  afterAll(async () => {
    printFigure(`concurrent duplicates (${TEST_ENGINE})`, figures);
    await w.t.close();
    await bookProviders.close();
  });

  const key = (route: RouteEntry) => `${route.method} ${route.path}`;

  it('has a scenario for every state-changing route the app answers', () => {
    const missing = w.routes
      .filter(isStateChanging)
      .map(key)
      .filter((k) => !(k in SCENARIOS) && !(k in NOT_DUPLICATED) && !(k in SCENARIO_NOT_YET_HERE));
    expect(missing).toEqual([]);
    expect(Object.keys(SCENARIOS).length).toBeGreaterThanOrEqual(18);
  });

  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    it(`${name}: no 5xx, and the effect happens as once`, async () => {
      const { request, check } = await scenario.prepare(w);
      const answers = await Promise.all(
        Array.from({ length: COPIES }, () => w.t.app.inject(request)),
      );
      figures.routes += 1;
      figures.requests += answers.length;
      figures.answers5xx += answers.filter((a) => a.statusCode >= 500).length;
      answers.forEach((answer, i) => checkAnswer(answer, `${name} copy ${i} (${randomUUID()})`));
      await check(answers);
    });
  }
});
