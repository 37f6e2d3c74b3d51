import { describe, expect, it } from 'vitest';
import { isTestFile, readSource, sourceFiles } from './source-files';

/**
 * A source file past this many lines does several things: split it by what each part does
 * (docs/ARCHITECTURE.md). Tests are exempt: a test file is a list of cases of one subject.
 */
const MAX_LINES = 400;

describe('source files', () => {
  it(`stay within ${MAX_LINES} lines in packages/*/src (tests exempt)`, () => {
    const files = sourceFiles().filter((file) => !isTestFile(file));
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .map((file) => ({ file, lines: readSource(file).split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
