import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { createListingAs } from '../../test/listing-fixtures';
import { DEFAULT_CAMPUS_FILE } from './campus-file';

/**
 * The campus file is read once, at start (issue 42: "no budget lost"): requests neither read it
 * again nor build the campus's view (its lists, look-ups and labels) again. The file is broken
 * once the app has started; every request still answers the campus read at start, from the one
 * view built for it.
 */
describe(`the campus is read once, at start (${TEST_ENGINE})`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-campus-once-'));
  const file = path.join(dir, 'campus.yaml');
  let t: TestApp;
  beforeAll(async () => {
    copyFileSync(DEFAULT_CAMPUS_FILE, file);
    t = await createTestApp({ CAMPUS_CONFIG: file });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 60 requests of campus-dependent routes without reading the file or building the campus again', async () => {
    const started = activeCampus();
    const seller = await createUser(t);
    const listing = await createListingAs(t, seller);
    // A file read now would fail (not YAML of a campus) or name another campus.
    writeFileSync(file, 'name: [this is no campus\n');
    const subject = started.subjects[0]!.code;
    const urls = [
      '/api/campus',
      '/api/listing/get?limit=3',
      `/api/listing/get/${listing._id}`,
      `/api/course/${subject}-101`,
      '/api/openapi.json',
      '/api/config',
    ];
    for (let round = 0; round < 10; round += 1) {
      for (const url of urls) {
        const res = await t.app.inject(url);
        expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
      }
    }
    const campus = (await t.app.inject('/api/campus')).json();
    expect(campus.name).toBe(started.name);
    // The same view object: no request built the campus again (campusOf keeps one per configuration).
    expect(activeCampus()).toBe(started);
  });
});
