import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../test/helpers';
import { createListingAs } from '../../test/listing-fixtures';
import { createAppOn } from '../../test/shared-database';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from '../config/campus-file';
import { openDatabase } from '../db/database';
import { requiredBooks, userCourses } from '../db/courses.schema';
import { runCampusCommand } from './campus-command';
import { findKeysInUse, type KeyInUse } from './campus-keys-in-use';
import { temporaryFolder } from '../../test/temporary-folders';

const CAMPUS = `# Our campus: the registrar sends the lists each term.
name: Pacific Crest University
timeZone: America/Los_Angeles
schools:
  - key: Letters
    label: College of Letters & Science
# Majors come from the registrar's file.
majors:
  - Marine Biology
  - label: Computer Science
    aliases: [cs]
# Subjects too (npm run campus -- import subjects).
subjects:
  - code: BIO
    name: Biology
  - code: CSE
    name: Computer Science
  - code: HIST
    name: History
meetupSpots:
  - id: library
    name: Library lobby
    place: Main library entrance
    hours: Daily 8:00-22:00
`;

/** A campus file and a CSV file in a fresh DATA_DIR (no database yet: nothing in use). */
function setUp(csv: string, campus = CAMPUS) {
  const dataDir = temporaryFolder('campus-import-');
  writeFileSync(path.join(dataDir, 'campus.yaml'), campus);
  writeFileSync(path.join(dataDir, 'list.csv'), csv);
  return {
    dataDir,
    campusFile: path.join(dataDir, 'campus.yaml'),
    csvFile: path.join(dataDir, 'list.csv'),
    env: {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 'x'.repeat(32),
    },
  };
}

async function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  keysInUse?: (kind: string, keys: readonly string[]) => Promise<KeyInUse[]>,
) {
  let out = '';
  let err = '';
  const code = await runCampusCommand(['import', ...args], env, {
    out: (text) => (out += text),
    err: (text) => (err += text),
    ...(keysInUse ? { keysInUse } : {}),
  });
  return { code, out, err };
}

const SUBJECTS_CSV = `code,name
BIO , Biology
CSE,Computer Science and Engineering
MATH,Mathematics
`;

describe('npm run campus -- import', () => {
  it('a dry run reports the changes and writes nothing', async () => {
    const s = setUp(SUBJECTS_CSV);
    const result = await run(['subjects', s.csvFile, '--dry-run'], s.env);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('1 added, 1 removed, 1 renamed, 1 unchanged');
    expect(result.out).toContain('+ MATH Mathematics');
    expect(result.out).toContain('- HIST History');
    expect(result.out).toContain('~ CSE Computer Science → CSE Computer Science and Engineering');
    expect(result.out).toContain('Dry run: nothing was written.');
    expect(readFileSync(s.campusFile, 'utf8')).toBe(CAMPUS);
  });

  it("replaces the list, keeping the file's comments and other fields", async () => {
    const s = setUp(SUBJECTS_CSV);
    const result = await run(['subjects', s.csvFile], s.env);
    expect(result.code).toBe(0);
    const text = readFileSync(s.campusFile, 'utf8');
    for (const comment of [
      '# Our campus: the registrar sends the lists each term.',
      "# Majors come from the registrar's file.",
      '# Subjects too (npm run campus -- import subjects).',
    ]) {
      expect(text).toContain(comment);
    }
    const campus = readCampusFile(s.campusFile);
    expect(campus.subjects).toEqual([
      { code: 'BIO', name: 'Biology' },
      { code: 'CSE', name: 'Computer Science and Engineering' },
      { code: 'MATH', name: 'Mathematics' },
    ]);
    expect(campus.majors).toEqual([
      'Marine Biology',
      { label: 'Computer Science', aliases: ['cs'] },
    ]);
    expect(campus.meetupSpots.map((spot) => spot.id)).toEqual(['library']);
    expect(campus.name).toBe('Pacific Crest University');
  });

  it('imports majors with their aliases, and a named campus file (--campus)', async () => {
    const s = setUp('label,aliases\nMarine Biology,\nComputer Science, cs ; comp sci\nDance\n');
    const other = path.join(s.dataDir, 'other.yaml');
    copyFileSync(s.campusFile, other);
    const result = await run(['majors', s.csvFile, '--campus', other], s.env);
    expect(result.err).toBe('');
    expect(result.out).toContain('1 added, 0 removed, 1 renamed, 1 unchanged');
    expect(readCampusFile(other).majors).toEqual([
      'Marine Biology',
      { label: 'Computer Science', aliases: ['cs', 'comp sci'] },
      'Dance',
    ]);
    expect(readFileSync(s.campusFile, 'utf8')).toBe(CAMPUS);
  });

  it('refuses a bad row by its row number, and writes nothing', async () => {
    const s = setUp('code,name\nBIO,Biology\necon,Economics\nHIST\nBIO,Biology again\n');
    const result = await run(['subjects', s.csvFile], s.env);
    expect(result.code).toBe(65);
    expect(result.err).toContain('row 3: code: a subject code is 2 to 5 capital letters');
    expect(result.err).toContain('row 4: 1 value(s), the header names 2');
    expect(result.err).toContain('row 5: "BIO" is on row 2 already');
    expect(readFileSync(s.campusFile, 'utf8')).toBe(CAMPUS);

    const header = setUp('subject,title\nBIO,Biology\n');
    expect((await run(['subjects', header.csvFile], header.env)).err).toContain(
      'row 1: the header must be code,name',
    );
  });

  it('refuses the shipped default campus file', async () => {
    const s = setUp(SUBJECTS_CSV);
    const before = readFileSync(DEFAULT_CAMPUS_FILE, 'utf8');
    const result = await run(['subjects', s.csvFile, '--campus', DEFAULT_CAMPUS_FILE], s.env);
    expect(result.code).toBe(78);
    expect(result.err).toMatch(/npm run campus -- init.*DATA_DIR\/campus\.yaml/s);
    expect(readFileSync(DEFAULT_CAMPUS_FILE, 'utf8')).toBe(before);
    // No campus file in DATA_DIR: the environment names the default one, refused the same way.
    const fresh = temporaryFolder('campus-import-');
    expect((await run(['subjects', s.csvFile], { DATA_DIR: fresh })).code).toBe(78);
  });

  it('refuses to remove a key the data uses, naming the rows', async () => {
    const s = setUp(SUBJECTS_CSV);
    const uses: KeyInUse[] = [{ key: 'HIST', table: 'listings', count: 1, examples: ['l-1'] }];
    const result = await run(['subjects', s.csvFile], s.env, () => Promise.resolve(uses));
    expect(result.code).toBe(65);
    expect(result.err).toContain('HIST: listings, 1 row(s): l-1');
    expect(readFileSync(s.campusFile, 'utf8')).toBe(CAMPUS);
  });

  it('refuses usage mistakes', async () => {
    expect((await run(['teachers', 'x.csv'], {})).code).toBe(64);
    expect((await run(['subjects'], {})).code).toBe(64);
  });
});

describe(`keys the data still uses (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
  });
  afterAll(() => t.close());

  it('names the listings that store a subject or a major', async () => {
    const listing = await createListingAs(t, seller, {
      subject: 'HIST',
      courseNumber: '101',
      major: 'History',
    });
    const subjects = await findKeysInUse(t.database.db, 'subjects', ['HIST', 'ECON']);
    expect(subjects).toEqual([
      { key: 'HIST', table: 'listings', count: 1, examples: [listing._id] },
    ]);
    await t.database.db
      .insert(userCourses)
      .values({ userId: seller.id, subject: 'ECON', courseNumber: '101' });
    await t.database.db.insert(requiredBooks).values({
      subject: 'ECON',
      courseNumber: '101',
      isbn: '9780134746241',
      title: 'Principles',
      required: true,
    });
    expect(await findKeysInUse(t.database.db, 'subjects', ['ECON'])).toEqual([
      { key: 'ECON', table: 'user_courses', count: 1, examples: [`ECON 101 of user ${seller.id}`] },
      { key: 'ECON', table: 'required_books', count: 1, examples: ['ECON 101 9780134746241'] },
    ]);
    const majors = await findKeysInUse(t.database.db, 'majors', ['History', 'Dance']);
    expect(majors).toEqual([
      { key: 'History', table: 'listings', count: 1, examples: [listing._id] },
    ]);
    expect(await findKeysInUse(t.database.db, 'subjects', [])).toEqual([]);

    // The command refuses with the listing named (its look-up answered by this database).
    const s = setUp(SUBJECTS_CSV);
    const result = await run(['subjects', s.csvFile], s.env, (kind, keys) =>
      findKeysInUse(t.database.db, kind as 'subjects', keys),
    );
    expect(result.code).toBe(65);
    expect(result.err).toContain(`HIST: listings, 1 row(s): ${listing._id}`);
    expect(readFileSync(s.campusFile, 'utf8')).toBe(CAMPUS);
  });

  // The command's own look-up, on the database DATABASE_URL names (PGlite's test database lives in
  // the test's memory, where no configuration can point).
  it.runIf(TEST_ENGINE === 'postgres')(
    'the command finds the listing in the database DATABASE_URL names',
    async () => {
      const target = await createPostgresDatabase(true);
      const database = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 3 });
      const app = await createAppOn(database);
      try {
        const listing = await createListingAs(app, await createUser(app), { subject: 'HIST' });
        const s = setUp(SUBJECTS_CSV);
        const result = await run(['subjects', s.csvFile], { ...s.env, DATABASE_URL: target.url });
        expect(result.code).toBe(65);
        expect(result.err).toContain(`HIST: listings, 1 row(s): ${listing._id}`);
        expect(readFileSync(s.campusFile, 'utf8')).toBe(CAMPUS);
      } finally {
        await app.close();
        await database.close();
        await target.drop();
      }
    },
  );
});
