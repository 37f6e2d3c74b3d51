import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTestFile, readSource, REPO_ROOT, sourceFiles } from './source-files';

const DECISIONS = path.join(REPO_ROOT, 'docs/decisions');

/** Issue 41 found a decision without a status and one missing from the index. */
describe('the decision records (docs/decisions)', () => {
  const records = readdirSync(DECISIONS).filter((name) => /^\d{3}-.+\.md$/.test(name));
  const index = readFileSync(path.join(DECISIONS, 'README.md'), 'utf8');

  it('each has a Status line under its title and is listed in the index', () => {
    expect(records.length).toBeGreaterThan(20);
    const unstated = records.filter(
      (name) => !/^Status: \S/m.test(readFileSync(path.join(DECISIONS, name), 'utf8')),
    );
    const unlisted = records.filter((name) => !index.includes(`](${name})`));
    expect({ unstated, unlisted }).toEqual({ unstated: [], unlisted: [] });
  });
});

/** Issue 41 found a query key written out in a page instead of taken from query-keys.ts. */
describe("the web app's query keys", () => {
  it('come from lib/query-keys.ts: no key is written out as an array elsewhere', () => {
    const written = sourceFiles()
      .filter((file) => file.startsWith('packages/web/src/') && !isTestFile(file))
      .filter((file) => file !== 'packages/web/src/lib/query-keys.ts')
      .filter((file) => /queryKey: \[/.test(readSource(file)));
    expect(written).toEqual([]);
  });
});
