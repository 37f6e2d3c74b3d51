import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/accessibility.md claims WCAG 2.1 A and AA. A conformance report names every success criterion
 * of the version it claims, once each, and none of a later version among them.
 */
const WCAG_21_A = [
  '1.1.1',
  '1.2.1',
  '1.2.2',
  '1.2.3',
  '1.3.1',
  '1.3.2',
  '1.3.3',
  '1.4.1',
  '1.4.2',
  '2.1.1',
  '2.1.2',
  '2.1.4',
  '2.2.1',
  '2.2.2',
  '2.3.1',
  '2.4.1',
  '2.4.2',
  '2.4.3',
  '2.4.4',
  '2.5.1',
  '2.5.2',
  '2.5.3',
  '2.5.4',
  '3.1.1',
  '3.2.1',
  '3.2.2',
  '3.3.1',
  '3.3.2',
  '4.1.1',
  '4.1.2',
];
const WCAG_21_AA = [
  '1.2.4',
  '1.2.5',
  '1.3.4',
  '1.3.5',
  '1.4.3',
  '1.4.4',
  '1.4.5',
  '1.4.10',
  '1.4.11',
  '1.4.12',
  '1.4.13',
  '2.4.5',
  '2.4.6',
  '2.4.7',
  '3.1.2',
  '3.2.3',
  '3.2.4',
  '3.3.3',
  '3.3.4',
  '4.1.3',
];

const report = readFileSync(
  path.resolve(import.meta.dirname, '../../../../docs/accessibility.md'),
  'utf8',
);

/** The criteria named in the first column of the table under a heading. */
function criteriaUnder(heading: string): string[] {
  const start = report.indexOf(heading);
  expect(start, `heading "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = report.indexOf('\n## ', start + heading.length);
  const section = report.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\|\s*(\d\.\d+\.\d+)\s/gm)].map((match) => match[1]!);
}

describe('the accessibility conformance report', () => {
  it('names each of WCAG 2.1 Level A criteria once, and nothing else, in Table 1', () => {
    expect(WCAG_21_A).toHaveLength(30);
    expect(criteriaUnder('## Table 1: Success criteria, Level A')).toEqual(WCAG_21_A);
  });

  it('names each of WCAG 2.1 Level AA criteria once, and nothing else, in Table 2', () => {
    expect(WCAG_21_AA).toHaveLength(20);
    expect(criteriaUnder('## Table 2: Success criteria, Level AA')).toEqual(WCAG_21_AA);
  });
});
