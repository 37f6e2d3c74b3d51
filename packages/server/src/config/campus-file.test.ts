import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { campusJsonSchema } from '../ops/campus-command';
import {
  CampusConfigError,
  campusFileOf,
  DEFAULT_CAMPUS_FILE,
  loadCampus,
  readCampusFile,
} from './campus-file';
import { temporaryFolder } from '../../test/temporary-folders';

const EXAMPLE = path.join(path.dirname(DEFAULT_CAMPUS_FILE), 'examples', 'pacific-crest.yaml');
const folder = () => temporaryFolder('campus-file-');

describe('the campus file the server reads', () => {
  it('is the default campus without a file, as the product served it before campus files', () => {
    const { campus, file } = loadCampus({ DATA_DIR: folder() });
    expect(file).toBe(DEFAULT_CAMPUS_FILE);
    // What existing installations without a campus file serve and have stored (school keys on
    // listings and alerts, major values, subject codes, meetup spot ids): an edit of the default
    // campus changes them all at the next start, so it has to be made here on purpose.
    expect(campus.name).toBe('University of Richmond');
    expect(campus.productName).toBe('Campus Books');
    expect(campus.timeZone).toBe('America/New_York');
    expect(campus.groupme).toEqual({ required: false, linkPrefix: 'https://groupme.com/' });
    expect(campus.schools).toEqual([
      { key: 'Jepson', label: 'Jepson' },
      { key: 'Bschool', label: 'Bschool' },
      { key: 'Leadership', label: 'Leadership' },
      { key: 'ArtScience', label: 'Arts & Sciences' },
      {
        key: 'LawProfessional',
        label: 'Law and Professional Studies',
        filterLabel: 'Law and Prof Studies',
      },
    ]);
    expect(campus.majors).toHaveLength(90);
    expect(campus.subjects).toHaveLength(36);
    expect(campus.meetupSpots.map((s) => s.id)).toEqual([
      'library-lobby',
      'commons',
      'police-lobby',
      'dining-hall',
    ]);
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
