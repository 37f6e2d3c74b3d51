import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as compiled from '@campus-books/common/campus';
import { MAJOR_ALIASES, MAJORS } from '@campus-books/common/campus-majors';
import { MEETUP_SPOTS } from '@campus-books/common/campus-meetups';
import { SUBJECTS } from '@campus-books/common/campus-subjects';
import { campusJsonSchema } from '../ops/campus-command';
import {
  CampusConfigError,
  campusFileOf,
  DEFAULT_CAMPUS_FILE,
  loadCampus,
  readCampusFile,
} from './campus-file';

const EXAMPLE = path.join(path.dirname(DEFAULT_CAMPUS_FILE), 'examples', 'pacific-crest.yaml');
const folder = () => mkdtempSync(path.join(tmpdir(), 'campus-file-'));

describe('the campus file the server reads', () => {
  it('is the default campus without a file, as the product served it before campus files', () => {
    const { campus, file } = loadCampus({ DATA_DIR: folder() });
    expect(file).toBe(DEFAULT_CAMPUS_FILE);
    // The default campus's values, which the web app still compiles in until it reads the campus
    // from the server (issue 42): the file and the compiled lists cannot drift apart.
    expect(campus.name).toBe(compiled.UNIVERSITY_NAME);
    expect(campus.productName).toBe(compiled.PRODUCT_NAME);
    expect(campus.timeZone).toBe(compiled.CAMPUS_TIME_ZONE);
    expect(campus.operator).toEqual({
      name: compiled.OPERATOR_NAME,
      creditYear: compiled.CREDIT_YEAR,
    });
    expect(campus.groupme).toEqual({
      required: compiled.GROUPME_REQUIRED,
      linkPrefix: compiled.DEFAULT_GROUPME_LINK_PREFIX,
    });
    expect(campus.schools).toEqual(
      compiled.SCHOOLS.map((s) => ({
        key: s.flag,
        label: s.label,
        ...(s.filterLabel === s.label ? {} : { filterLabel: s.filterLabel }),
      })),
    );
    expect(campus.majors.map((m) => (typeof m === 'string' ? m : m.label))).toEqual(
      MAJORS.map((m) => m.label),
    );
    for (const major of campus.majors) {
      if (typeof major !== 'string') expect(major.aliases).toEqual(MAJOR_ALIASES[major.label]);
    }
    expect(campus.subjects).toEqual(SUBJECTS.map((s) => ({ ...s })));
    expect(campus.meetupSpots).toEqual(MEETUP_SPOTS.map((s) => ({ ...s })));
  });

  it('is DATA_DIR/campus.yaml when there is one, and CAMPUS_CONFIG before it', () => {
    const dataDir = folder();
    writeFileSync(path.join(dataDir, 'campus.yaml'), readFileSync(EXAMPLE));
    expect(loadCampus({ DATA_DIR: dataDir }).campus.name).toBe('Pacific Crest University');
    expect(campusFileOf({ DATA_DIR: dataDir, CAMPUS_CONFIG: DEFAULT_CAMPUS_FILE })).toBe(
      DEFAULT_CAMPUS_FILE,
    );
  });

  it('reads a JSON campus file as well', () => {
    const file = path.join(folder(), 'campus.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Lakeside College',
        timeZone: 'America/Chicago',
        schools: [{ key: 'arts', label: 'Arts' }],
      }),
    );
    expect(readCampusFile(file)).toMatchObject({
      name: 'Lakeside College',
      timeZone: 'America/Chicago',
    });
  });

  it('refuses a bad file with every problem named, and a missing or malformed one', () => {
    const file = path.join(folder(), 'campus.yaml');
    writeFileSync(
      file,
      'name: ""\ntimeZone: Mars/Olympus\nschools: []\ntheme:\n  primaryColor: "#ffff00"\n',
    );
    const error = (() => {
      try {
        readCampusFile(file);
      } catch (caught) {
        return caught as CampusConfigError;
      }
      throw new Error('accepted');
    })();
    expect(error).toBeInstanceOf(CampusConfigError);
    expect(error.problems).toHaveLength(4);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/timeZone: is not a time zone name/);
    expect(error.message).toMatch(/theme\.primaryColor: white text on #ffff00/);

    expect(() => readCampusFile(path.join(folder(), 'none.yaml'))).toThrow(/no such file/);
    writeFileSync(file, 'name: [unclosed\nschools: {\n');
    expect(() => readCampusFile(file)).toThrow(CampusConfigError);
    writeFileSync(file, 'name: A\nname: B\n');
    expect(() => readCampusFile(file)).toThrow(/unique|duplicate/i);
  });

  it('ships the JSON Schema editors check a campus file with, generated from the schema', () => {
    const shipped = readFileSync(
      path.join(path.dirname(DEFAULT_CAMPUS_FILE), 'campus.schema.json'),
      'utf8',
    );
    expect(shipped, 'regenerate it: npm run campus -- schema --write').toBe(campusJsonSchema());
  });

  it('ships a second campus, valid, that names nothing of the default one', () => {
    const example = readCampusFile(EXAMPLE);
    const text = JSON.stringify(example);
    const fallback = readCampusFile(DEFAULT_CAMPUS_FILE);
    for (const word of [fallback.name, 'Richmond', ...fallback.meetupSpots.map((s) => s.name)]) {
      expect(text).not.toContain(word);
    }
    expect(example.timeZone).not.toBe(fallback.timeZone);
  });
});
