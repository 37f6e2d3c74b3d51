import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../../test/helpers';

/** The set-up the my-courses suites share: the list and calendar's, and the books and alerts'. */

export interface MyCoursesSuite {
  /** The suite's app, created by its beforeAll. */
  app(): TestApp;
  /** POST /api/my-courses/<action> with a JSON body, as `who` (null: signed out). */
  post(action: string, payload: unknown, who: TestUser | null): Promise<LightMyRequestResponse>;
}

/** Called in a `describe`: its beforeAll makes the app, its afterAll closes it. */
export function myCoursesSuite(): MyCoursesSuite {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  return {
    app: () => t,
    post: (action, payload, who) =>
      t.app.inject({
        method: 'POST',
        url: `/api/my-courses/${action}`,
        payload: payload as object,
        headers: who ? { cookie: who.cookie } : {},
      }),
  };
}
