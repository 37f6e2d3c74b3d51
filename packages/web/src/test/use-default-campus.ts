// The web project's tests run on the default campus (packages/server/campus/default.yaml), as the
// app does when the server serves it; a test of another campus sets its own and puts this one back.
import { setActiveCampus } from '@campus-books/common/active-campus';
import { campusConfigSchema, type CampusConfig } from '@campus-books/common/campus-config';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A campus file of the server's (a path under packages/server/campus/), validated. */
export function readCampusFile(name: string): CampusConfig {
  const file = new URL(`../../../server/campus/${name}`, import.meta.url);
  return campusConfigSchema.parse(parse(readFileSync(file, 'utf8')));
}

export const DEFAULT_CAMPUS = readCampusFile('default.yaml');

setActiveCampus(DEFAULT_CAMPUS);
