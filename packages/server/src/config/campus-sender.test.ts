import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { campusConfigSchema, campusProblems } from '@campus-books/common/campus-config';
// The written messages the server installs: a problem must still name the unknown key under them.
import '@campus-books/common/zod-messages';
import { readCampusFile } from './campus-file';
import { ConfigError, loadConfig } from './config';
import { campusSender, senderOf } from './mail-sender';
import { TEST_CAMPUS_FILE } from '../../test/use-default-campus';

// A campus file's own sender and moderators (decision 024): what a single-campus installation
// takes from it when MAIL_FROM or MODERATOR_EMAILS is not set, and what the file may say.
describe("a campus file's sender and moderators", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** DATA_DIR with a campus file: the test campus with `fields` over it. */
  function dataDirWith(fields: Record<string, unknown>): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'cb-campus-sender-'));
    dirs.push(dir);
    const { logo: _logo, ...theme } = readCampusFile(TEST_CAMPUS_FILE).theme;
    writeFileSync(
      path.join(dir, 'campus.json'),
      JSON.stringify({ ...readCampusFile(TEST_CAMPUS_FILE), theme, ...fields }),
    );
    return dir;
  }
  const load = (fields: Record<string, unknown>, env: Record<string, string> = {}) => {
    const dir = dataDirWith(fields);
    return loadConfig({ DATA_DIR: dir, CAMPUS_CONFIG: path.join(dir, 'campus.json'), ...env });
  };

  it("sends from the file's sender when MAIL_FROM is not set, and from MAIL_FROM when it is", () => {
    const fields = {
      mail: { from: { name: 'Books "Exchange"', address: 'books@campus.example' } },
    };
    expect(load(fields).mailFrom).toBe('"Books \\"Exchange\\"" <books@campus.example>');
    expect(load(fields, { MAIL_FROM: 'Ops <ops@campus.example>' }).mailFrom).toBe(
      'Ops <ops@campus.example>',
    );
    // Without a sender in the file, MAIL_FROM's default as before.
    expect(load({}).mailFrom).toBe(loadConfig({ DATA_DIR: dataDirWith({}) }).mailFrom);
  });

  it("fills a sender's missing part from the campus's name and MAIL_FROM's address", () => {
    const campus = campusConfigSchema.parse({
      ...readCampusFile(TEST_CAMPUS_FILE),
      theme: { primaryColor: '#2458c6' },
      name: 'Lakeside College',
      mail: { from: {} },
    });
    expect(campusSender(campus, 'Books <books@installation.example>')).toBe(
      '"Lakeside College" <books@installation.example>',
    );
    expect(campusSender(campus, 'plain@installation.example')).toBe(
      '"Lakeside College" <plain@installation.example>',
    );
    expect(senderOf('A \\ B', 'a@b.example')).toBe('"A \\\\ B" <a@b.example>');
  });

  it("takes the file's moderators unless MODERATOR_EMAILS is set, and never shows them", () => {
    const fields = { moderators: [' Moderator@Campus.Example '] };
    const config = load(fields);
    expect(config.trust.moderatorEmails).toEqual(['moderator@campus.example']);
    expect(config.campus).not.toHaveProperty('moderators');
    expect(
      load(fields, { MODERATOR_EMAILS: 'other@campus.example' }).trust.moderatorEmails,
    ).toEqual(['other@campus.example']);
  });

  it('names a bad sender, moderator or address', () => {
    const parsed = campusConfigSchema.safeParse({
      ...readCampusFile(TEST_CAMPUS_FILE),
      theme: { primaryColor: '#2458c6' },
      mail: { from: { name: 'Books\r\nBcc: x@y.example', address: 'not an address' }, reply: 1 },
      moderators: ['nobody'],
      publicUrl: 'https://books.campus.example/path',
    });
    expect(parsed.success).toBe(false);
    const problems = campusProblems(parsed.error!);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mail\.from\.name: /),
        expect.stringMatching(/^mail\.from\.address: /),
        'mail: not a field of the campus file: "reply"',
        expect.stringMatching(/^moderators\.0: /),
        'publicUrl: is an origin only',
      ]),
    );
    expect(() => load({ moderators: ['nobody'] })).toThrow(ConfigError);
  });
});
