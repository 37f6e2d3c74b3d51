import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { verifyArchive } from '../../ops/archive-reader';
import { adminTokenFile } from './admin-token';

describe('POST /api/admin/backup', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // Trusting a proxy must not let a forged X-Forwarded-For reach the admin route.
    t = await createTestApp({ TRUST_PROXY: 'true' });
    token = readFileSync(adminTokenFile(t.dataDir), 'utf8').trim();
  });
  afterAll(() => t.close());

  const backup = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/admin/backup', headers, remoteAddress });

  it('keeps its token in DATA_DIR, readable by the server user only', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(adminTokenFile(t.dataDir)).mode & 0o077).toBe(0);
  });

  it('answers 401 without the token or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: token },
    ];
    for (const headers of attempts) {
      const res = await backup(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, statusCode: 401 });
    }
  });

  it('does not exist for another machine, even with the token or a forged forwarded address', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await backup(auth, '203.0.113.7')).statusCode).toBe(404);
    expect(
      (await backup({ ...auth, 'x-forwarded-for': '127.0.0.1' }, '203.0.113.7')).statusCode,
    ).toBe(404);
  });

  it('streams a complete, checked archive of the live data', async () => {
    const seller = await createUser(t);
    await createListingAs(t, seller, { name: 'Streamed book' });
    const res = await backup({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-tar');
    const file = path.join(t.dataDir, 'streamed.tar');
    writeFileSync(file, res.rawPayload);
    const manifest = await verifyArchive(file);
    expect(manifest.counts).toMatchObject({ users: 1, listings: 1, activeListings: 1 });
  });
});
