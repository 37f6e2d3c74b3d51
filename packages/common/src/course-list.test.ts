import { describe, expect, it } from 'vitest';
import { parseCourseList } from './course-list';

const labels = (text: string) =>
  parseCourseList(text).courses.map((c) => `${c.subject} ${c.courseNumber}`);

describe('parseCourseList', () => {
  it('reads commas, hyphens and "and"', () => {
    expect(labels('ECON 101, MATH-211 and CHEM 205')).toEqual(['ECON 101', 'MATH 211', 'CHEM 205']);
  });

  it('reads lower case, no space, underscores, lines, semicolons and a letter suffix', () => {
    expect(labels('econ101\nmath_211; chem 205l & biol-110')).toEqual([
      'ECON 101',
      'MATH 211',
      'CHEM 205L',
      'BIOL 110',
    ]);
  });

  it('keeps a course given twice once and names it', () => {
    const read = parseCourseList('ECON 101, econ-101, MATH 211, ECON101');
    expect(read.courses).toHaveLength(2);
    expect(read.duplicates).toEqual(['ECON 101']);
  });

  it('reports unknown subjects and pieces with no course, never drops them', () => {
    const read = parseCourseList('QUID 101, ECON 101 and my lab notes');
    expect(read.courses).toEqual([{ subject: 'ECON', courseNumber: '101' }]);
    expect(read.unknown).toEqual([
      { text: 'QUID 101', reason: 'is not a subject of this campus' },
      { text: 'my lab notes', reason: 'is not a course code (such as ECON 101)' },
    ]);
  });

  it('reads two codes in one piece and ignores empty pieces', () => {
    expect(labels('ECON 101 MATH 211,, ,')).toEqual(['ECON 101', 'MATH 211']);
    expect(parseCourseList(' , \n ').courses).toEqual([]);
  });
});
