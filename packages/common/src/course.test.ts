import { describe, expect, it } from 'vitest';
import { courseSlug, formatCourse, parseCourseCode } from './course';

describe('parseCourseCode', () => {
  it.each([
    ['ECON 101', { subject: 'ECON', courseNumber: '101' }],
    ['econ101', { subject: 'ECON', courseNumber: '101' }],
    ['ECON-101', { subject: 'ECON', courseNumber: '101' }],
    ['  Econ  101 ', { subject: 'ECON', courseNumber: '101' }],
    ['chem 205l', { subject: 'CHEM', courseNumber: '205L' }],
    ['FIN 360', { subject: 'FIN', courseNumber: '360' }],
    ['101', { subject: null, courseNumber: '101' }],
  ])('reads %s', (text, expected) => {
    expect(parseCourseCode(text)).toEqual(expected);
  });

  it.each(['XYZW 101', 'calculus', 'ECON', 'ECON 1O1', '', 'ECON 101 202', '12345'])(
    'refuses %s',
    (text) => {
      expect(parseCourseCode(text)).toBeNull();
    },
  );
});

describe('formatCourse and courseSlug', () => {
  it('says the subject when known', () => {
    expect(formatCourse('ECON', '101')).toBe('ECON 101');
    expect(formatCourse(null, '101')).toBe('101');
    expect(courseSlug('ECON', '101')).toBe('ECON-101');
    expect(courseSlug(null, '101')).toBe('101');
  });
});
