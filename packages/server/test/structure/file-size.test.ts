import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTestFile, readSource, REPO_ROOT, sourceFiles } from './source-files';

/**
 * A source file past this many lines does several things: split it by what each part does
 * (docs/ARCHITECTURE.md). A test file too: split it by what its parts test, their shared set-up in
 * a helper beside them.
 */
const MAX_LINES = 400;

/** The benchmark's TypeScript files, as paths from the repository's root. */
function benchFiles(): string[] {
  return readdirSync(path.join(REPO_ROOT, 'bench'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.posix.join('bench', ...file.split(path.sep)));
}

const linesOf = (file: string) => readSource(file).split('\n').length - 1;

describe('source files', () => {
  it(`stay within ${MAX_LINES} lines in packages/*/src, tests included, and in bench`, () => {
    const files = [...sourceFiles(), ...benchFiles()];
    expect(files.filter(isTestFile).length).toBeGreaterThan(100);
    expect(files.filter((file) => file.startsWith('bench/')).length).toBeGreaterThan(10);
    const tooLong = files
      .map((file) => ({ file, lines: linesOf(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
