import { describe, expect, it } from 'vitest';
import { isTestFile, readSource, sourceFiles } from './source-files';

/**
 * A condition reads the same on every page and in every mail: its words live in one place,
 * common/src/display.ts (`conditionLabel`, `CONDITION_OPTIONS`). A page or a mail that writes a
 * label of its own beside a stored value ("mint" → "Good As New" on one form, "New" on the card),
 * or that prints the stored value itself ("condition mint"), drifts from the others.
 */
const LABELS_FILE = 'packages/common/src/display.ts';
const CONDITION = '(?:mint|excellent|good|poor)';

/** `{ value: 'mint', label: 'New' }` and `<option value="mint">New</option>`. */
const WRITTEN_LABEL = new RegExp(
  `value[=:]\\s*["']${CONDITION}["'](?:\\s*,\\s*label:\\s*["'][^"']|>[^<{])`,
);
/** A condition's stored value printed into text: `${alert.condition}`. */
const PRINTED_VALUE = /\$\{\s*[\w.?]*\.condition\s*\}/;

describe('condition labels', () => {
  const files = sourceFiles().filter(
    (file) => file !== LABELS_FILE && !isTestFile(file) && !file.startsWith('packages/e2e/'),
  );

  it('are written in display.ts only: no page or mail pairs a condition with words of its own', () => {
    expect(files.filter((file) => WRITTEN_LABEL.test(readSource(file)))).toEqual([]);
  });

  it('are what a page or mail prints, never the stored value', () => {
    // SQL templates (`sql\`${listings.condition}\``) name the column, which is no text for a person.
    const printsValue = (file: string) =>
      readSource(file)
        .split('\n')
        .some((line) => PRINTED_VALUE.test(line) && !line.includes('sql`'));
    expect(files.filter(printsValue)).toEqual([]);
  });
});
