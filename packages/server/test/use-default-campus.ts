// Tests that use the schemas or the campus's lists without starting an app (which sets the campus
// it is configured with) run on the test campus: the default campus, or the campus file a test
// project names in TEST_CAMPUS_FILE (the second campus's project, vitest.config.ts), which the
// apps the tests start serve too (createTestApp).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setActiveCampus } from '@campus-books/common/active-campus';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from '../src/config/campus-file';

/** The campus file a test project runs on (a path relative to packages/server), or the default's. */
export function testCampusFileOf(named: string | undefined): string {
  const serverRoot = fileURLToPath(new URL('..', import.meta.url));
  return named?.trim() ? path.resolve(serverRoot, named.trim()) : DEFAULT_CAMPUS_FILE;
}

/** The campus file this test run serves: CAMPUS_CONFIG for every app createTestApp starts. */
export const TEST_CAMPUS_FILE = testCampusFileOf(process.env.TEST_CAMPUS_FILE);

setActiveCampus(readCampusFile(TEST_CAMPUS_FILE));
