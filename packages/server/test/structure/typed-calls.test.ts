import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSource, REPO_ROOT } from './source-files';

/**
 * Issue 41: the server's tests, the e2e helpers, the reliability tests and the bench call the API
 * through one typed caller (common's callRoute: `routeCaller` in test/api-caller.ts), whose answer
 * is typed by the route table, not read with `.json() as X`. The casts left when the rule was
 * written are counted here per file: none may be added, and a file that drops its casts is taken
 * out (the count may only go down). Most are requests outside the route table (altcha's
 * challenge, an upload, another server's page) or a raw answer a security check reads as it is.
 */
const CASTS_LEFT: Record<string, number> = {
  // A page's rewrite of altcha's challenge, outside the route table (altcha types it).
  'packages/e2e/tests/forms/challenge.spec.ts': 1,
  // The web app's manifest, a file and not a route of the API.
  'packages/e2e/tests/second-campus.spec.ts': 1,
  // altcha's challenge, outside the route table; altcha types its answer.
  'packages/server/src/features/accounts/campus-limits.test.ts': 1,
  // tus's last PATCH of an upload, outside the route table.
  'packages/server/src/ops/backup-live.test.ts': 1,
  // The health route of a previous release's server, outside the route table.
  'packages/server/test/upgrade/previous-release.upgrade.ts': 1,
  // Generic reads (`.json<X>()`), counted the same. Answers on a campus's host, still to convert to
  // the typed call on a campus's host (`two.call` in test/two-campuses.ts).
  'packages/server/src/campuses/campus-jobs.test.ts': 1,
  'packages/server/src/campuses/campus-wall.test.ts': 3,
  'packages/server/test/security/campus-isolation.test.ts': 6,
  // A search's answer read with its X-Total-Count header, as the shapes' plans are compared.
  'packages/server/src/features/search/search.shapes.test.ts': 1,
  // The web app's manifest, a file and not a route of the API.
  'packages/server/src/plugins/web-icons.test.ts': 1,
  // Whichever route the walk is on: its id, from any route's answer.
  'packages/server/test/security/id-params.test.ts': 1,
};

/** Where the API is called from: the server's tests and helpers, the e2e tests, the bench. */
const CALLERS = ['packages/server/src', 'packages/server/test', 'packages/e2e', 'bench'];

/** An answer's JSON read and cast: `res.json() as X`, `(await res.json()) as X`, `res.json<X>()`. */
const CAST = /\.json\(\)\)? as |\.json</g;

/** This file names the cast it counts. */
const THIS_FILE = 'packages/server/test/structure/typed-calls.test.ts';

function callerFiles(): string[] {
  return CALLERS.flatMap((root) =>
    readdirSync(path.join(REPO_ROOT, root), { recursive: true, encoding: 'utf8' })
      .map((file) => file.split(path.sep))
      .filter((parts) => !parts.includes('node_modules') && /\.tsx?$/.test(parts.at(-1)!))
      .map((parts) => path.posix.join(root, ...parts))
      .filter((file) => file !== THIS_FILE),
  );
}

describe('calls of the API in tests, e2e helpers and the bench', () => {
  it('read answers through the typed caller: no cast of `.json()` beyond those counted', () => {
    const files = callerFiles();
    expect(files.length).toBeGreaterThan(200);
    const casts = Object.fromEntries(
      files
        .map((file) => [file, readSource(file).match(CAST)?.length ?? 0] as const)
        .filter(([, count]) => count > 0),
    );
    expect(casts).toEqual(CASTS_LEFT);
  });
});
