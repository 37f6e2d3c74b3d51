import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../../test/helpers';

describe(`GET /api/config (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('publishes the account rules the web app validates with', async () => {
    const res = await t.app.inject('/api/config');
    expect(res.json()).toMatchObject({
      groupmeLinkPrefix: 'https://groupme.com/',
      schoolEmailDomain: null,
    });
  });
});
