import { PRODUCT_VERSION } from '@campus-books/common/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../../test/helpers';

describe(`GET /api/health (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports the server and database as up, and the release running', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      server: 'up',
      database: 'up',
      engine: TEST_ENGINE,
      version: PRODUCT_VERSION,
    });
  });

  it('answers 503 while the server drains, so a load balancer takes it out', async () => {
    t.app.lifecycle.draining = true;
    try {
      const res = await t.app.inject('/api/health');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, server: 'draining', database: 'up' });
    } finally {
      t.app.lifecycle.draining = false;
    }
  });

  it('answers an unknown API route with the error shape', async () => {
    const res = await t.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, statusCode: 404 });
  });
});
