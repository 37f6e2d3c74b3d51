import type { Alert } from '@campus-books/common/alert.schemas';
import { describe, expect, it } from 'vitest';
import { describeAlert } from './describe-alert';

const alert = (fields: Partial<Alert>): Alert => ({
  _id: 'a',
  searchTerm: null,
  isbn: null,
  subject: null,
  courseNumber: null,
  major: null,
  condition: null,
  school: null,
  maxPrice: null,
  digest: false,
  paused: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...fields,
});

describe('an alert in words', () => {
  it('names the condition as the badges and mails do, never its stored value', () => {
    expect(describeAlert(alert({ condition: 'mint' }))).toBe('condition New');
    expect(
      describeAlert(
        alert({ subject: 'ECON', courseNumber: '101', maxPrice: 20, condition: 'good' }),
      ),
    ).toBe('course ECON 101, condition Good, at most $20.00');
  });

  it("names the school by the campus's label, and by its key once the campus no longer has it", () => {
    expect(describeAlert(alert({ courseNumber: '101', school: 'ArtScience' }))).toBe(
      'course 101, school Arts & Sciences',
    );
    expect(describeAlert(alert({ courseNumber: '101', school: 'Gone' }))).toBe(
      'course 101, school Gone',
    );
  });
});
