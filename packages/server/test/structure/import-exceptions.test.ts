import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, isTestFile, REPO_ROOT, sourceFiles } from './source-files';

/** `'feature/file.ts': 'what: why'`, as eslint.config.js writes its lists. */
type Reasons = Record<string, string>;

/** The most import exceptions between server features (issue 41: "a short list"). */
const MAX_EXCEPTIONS = 20;
const FEATURES = 'packages/server/src/features';

const { SERVER_FEATURE_IMPORTS, SERVER_SHARED_CORE } = (await import(
  pathToFileURL(path.join(REPO_ROOT, 'eslint.config.js')).href
)) as { SERVER_FEATURE_IMPORTS: Record<string, Reasons>; SERVER_SHARED_CORE: Reasons };

const exceptions = Object.entries(SERVER_FEATURE_IMPORTS).flatMap(([feature, files]) =>
  Object.entries(files).map(([file, reason]) => ({ feature, file, reason })),
);

/** The feature files (tests left out) that import `file` (`feature/name.ts`), by their feature. */
function importersOf(file: string): string[] {
  const files = sourceFiles().filter((f) => f.startsWith(`${FEATURES}/`) && !isTestFile(f));
  const known = new Set(sourceFiles());
  return files
    .filter((f) => importsOf(f, known).includes(`${FEATURES}/${file}`))
    .map((f) => f.slice(FEATURES.length + 1).split('/')[0]!);
}

describe('the imports between server features that eslint.config.js allows', () => {
  it(`are a short list: at most ${MAX_EXCEPTIONS} exceptions beside the shared core`, () => {
    expect(exceptions.length).toBeGreaterThan(0);
    expect(exceptions.length).toBeLessThanOrEqual(MAX_EXCEPTIONS);
  });

  it('each says what it takes and why', () => {
    const entries = [
      ...exceptions.map(({ feature, file, reason }) => ({ entry: `${feature} → ${file}`, reason })),
      ...Object.entries(SERVER_SHARED_CORE).map(([file, reason]) => ({ entry: file, reason })),
    ];
    const unexplained = entries.filter(({ reason }) => !/^\S.*: \S.{10,}/.test(reason));
    expect(unexplained).toEqual([]);
  });

  it('each exception is still imported by its feature, and each core file by another feature', () => {
    const unused = exceptions
      .filter(({ feature, file }) => !importersOf(file).includes(feature))
      .map(({ feature, file }) => `${feature} → ${file}`);
    const unshared = Object.keys(SERVER_SHARED_CORE).filter(
      (file) => !importersOf(file).some((feature) => feature !== file.split('/')[0]),
    );
    expect({ unused, unshared }).toEqual({ unused: [], unshared: [] });
  });
});
