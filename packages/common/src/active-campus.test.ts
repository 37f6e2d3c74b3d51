import { describe, expect, it } from 'vitest';
import { activeCampus, campusOf } from './active-campus';
import { campusConfigSchema, type CampusConfigInput } from './campus-config';

/** A small campus of the test's own: one school, a few majors (some with what students type). */
const smallCampus = (more: Partial<CampusConfigInput> = {}) =>
  campusOf(
    campusConfigSchema.parse({
      name: 'Pacific Crest University',
      timeZone: 'America/Los_Angeles',
      schools: [{ key: 'engineering', label: 'School of Engineering' }],
      majors: [
        'Computational Biology',
        { label: 'Computer Science', aliases: ['cs', 'comp sci'] },
        'Chemistry',
      ],
      ...more,
    }),
  );

describe('finding a major by what students type', () => {
  // The default campus (the test setup sets it), whose aliases students of it type.
  const labels = (term: string) =>
    activeCampus()
      .findMajors(term)
      .map((m) => m.label);

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
    expect(activeCampus().findMajors('  ')).toHaveLength(activeCampus().majors.length);
  });

  it('puts an alias typed in full before the labels the words begin, whatever the list order', () => {
    const campus = smallCampus();
    expect(campus.findMajors('comp').map((m) => m.label)).toEqual([
      'Computational Biology',
      'Computer Science',
    ]);
    expect(campus.findMajors('comp sci').map((m) => m.label)).toEqual(['Computer Science']);
    expect(campus.findMajors('CS').map((m) => m.value)).toEqual(['Computer Science']);
  });
});

describe('the footer credit', () => {
  it('names no one when the campus names no operator', () => {
    expect(smallCampus().footerCredit).toBeNull();
    expect(smallCampus({ operator: { name: '   ' } }).footerCredit).toBeNull();
    expect(activeCampus().footerCredit).toBeNull();
  });

  it('credits the operator a campus names, with its year when it gives one', () => {
    expect(
      smallCampus({ operator: { name: 'the Spider Coders', creditYear: 2025 } }).footerCredit,
    ).toBe('Built by the Spider Coders, for students · 2025');
    expect(smallCampus({ operator: { name: 'the Spider Coders' } }).footerCredit).toBe(
      'Built by the Spider Coders, for students',
    );
  });
});
