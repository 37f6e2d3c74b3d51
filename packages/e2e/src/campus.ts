import { readFileSync } from 'node:fs';
import { campusOf, type Campus } from '@campus-books/common/active-campus';
import { campusConfigSchema } from '@campus-books/common/campus-config';
import { parse } from 'yaml';

const DEFAULT_CAMPUS_FILE = new URL('../../server/campus/default.yaml', import.meta.url);

let campus: Campus | undefined;

/**
 * The campus the server under test serves: the default campus file's (playwright.config.ts names no
 * other), read as the server reads it, so a spec expects what the running server shows.
 */
export function defaultCampus(): Campus {
  campus ??= campusOf(campusConfigSchema.parse(parse(readFileSync(DEFAULT_CAMPUS_FILE, 'utf8'))));
  return campus;
}
