import { describe, expect, it } from 'vitest';
import { CREDIT_YEAR, footerCredit, OPERATOR_NAME } from './campus';
import { findMajors, MAJOR_ALIASES, MAJORS } from './campus-majors';

const labels = (term: string) => findMajors(term).map((m) => m.label);

describe('finding a major by what students type', () => {
  it.each([
    ['CS', 'Computer Science'],
    ['cs', 'Computer Science'],
    ['comp sci', 'Computer Science'],
    ['compsci', 'Computer Science'],
    ['econ', 'Economics (Arts & Sciences)'],
    ['bio', 'Biology'],
    ['poli sci', 'Political Science'],
    ['psych', 'Psychology'],
    ['stats', 'Statistics'],
  ])('%s finds %s first', (term, label) => {
    expect(labels(term)[0]).toBe(label);
  });

  it('econ finds both economics majors, bio finds biochemistry too', () => {
    expect(labels('econ')).toEqual(
      expect.arrayContaining(['Economics (Arts & Sciences)', 'Economics (Business)']),
    );
    expect(labels('bio')).toContain('Biochemistry and Molecular Biology');
  });

  it('still finds labels by the beginnings of their words, and nothing for nonsense', () => {
    expect(labels('business fin')).toEqual(['Business Administration - Finance']);
    expect(labels('Accounting')).toEqual(['Accounting']);
    expect(labels('zzzz')).toEqual([]);
    expect(findMajors('  ')).toHaveLength(MAJORS.length);
  });

  it('every alias belongs to a major of the list', () => {
    const known = new Set(MAJORS.map((m) => m.label));
    expect(Object.keys(MAJOR_ALIASES).filter((label) => !known.has(label))).toEqual([]);
  });
});

describe('the footer credit', () => {
  it('names no one by default: no operator, no credit line', () => {
    expect(OPERATOR_NAME).toBe('');
    expect(footerCredit()).toBeNull();
    expect(footerCredit('   ')).toBeNull();
  });

  it('credits the operator a campus names, with the year', () => {
    expect(footerCredit('the Spider Coders')).toBe(
      `Built by the Spider Coders, for students · ${CREDIT_YEAR}`,
    );
  });
});
