import { describe, expect, it } from 'vitest';
import { campusConfigSchema, campusProblems } from './campus-config';

const minimal = {
  name: 'Pacific Crest University',
  timeZone: 'America/Los_Angeles',
  schools: [{ key: 'engineering', label: 'School of Engineering' }],
};

function problemsOf(input: unknown): string[] {
  const parsed = campusConfigSchema.safeParse(input);
  return parsed.success ? [] : campusProblems(parsed.error);
}

describe('the campus configuration schema', () => {
  it('fills in every default of a minimal campus', () => {
    const campus = campusConfigSchema.parse(minimal);
    expect(campus).toMatchObject({
      productName: 'Campus Books',
      emailDomain: null,
      termEndDates: [],
      operator: { name: '' },
      groupme: { required: false, linkPrefix: 'https://groupme.com/' },
      theme: { primaryColor: '#2458c6' },
      majors: [],
      subjects: [],
      meetupSpots: [],
    });
  });

  it('names every problem of a bad file at once, each with where it is', () => {
    const problems = problemsOf({
      name: '',
      timeZone: 'Mars/Olympus',
      emailDomain: 'not a domain',
      termEndDates: ['2027-13-45', 'June'],
      schools: [
        { key: 'law', label: 'Law' },
        { key: 'Law', label: 'Law again' },
        { key: '1st', label: 'First' },
      ],
      subjects: [{ code: 'econ', name: 'Economics' }],
      meetupSpots: [
        { id: 'a', name: 'A', place: 'here', hours: 'always' },
        { id: 'a', name: 'B', place: 'there', hours: 'never' },
      ],
      theme: { primaryColor: '#ffcc00' },
      unknownSetting: true,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name: /),
        expect.stringMatching(/^timeZone: is not a time zone name/),
        expect.stringMatching(/^emailDomain: is not a domain name/),
        expect.stringMatching(/^termEndDates\.0: is not a date/),
        expect.stringMatching(/^termEndDates\.1: a date is written YYYY-MM-DD/),
        'schools.1: school "law" is listed twice',
        expect.stringMatching(/^schools\.2\.key: a school key is a letter/),
        expect.stringMatching(/^subjects\.0\.code: a subject code is 2 to 5 capital letters/),
        'meetupSpots.1: meetup spot "a" is listed twice',
        expect.stringMatching(/unknownSetting/),
      ]),
    );
  });

  it('refuses a primary colour white text cannot be read on, naming the nearest that passes', () => {
    const problems = problemsOf({ ...minimal, theme: { primaryColor: '#5a9bf0' } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^theme\.primaryColor: white text on #5a9bf0 has a contrast of 2\.\d\d:1.*nearest colour that passes is #[0-9a-f]{6}/,
    );
  });

  it('keeps a domain as the sign-up check compares it (lower case)', () => {
    expect(
      campusConfigSchema.parse({ ...minimal, emailDomain: 'PCU.Example.EDU' }).emailDomain,
    ).toBe('pcu.example.edu');
  });
});
