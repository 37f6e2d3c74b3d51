import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCampusFile } from '../config/campus-file';
import { runCampusCommand, schoolKeyOf, terminalPrompter } from './campus-command';
import { temporaryFolder } from '../../test/temporary-folders';

function run(args: string[], env: NodeJS.ProcessEnv, answers?: string[]) {
  let out = '';
  let err = '';
  const input = new PassThrough();
  const prompter = () => terminalPrompter(input, new PassThrough());
  if (answers) input.end(`${answers.join('\n')}\n`);
  return runCampusCommand(args, env, {
    out: (text) => (out += text),
    err: (text) => (err += text),
    prompter,
  }).then((code) => ({ code, out, err }));
}

describe('npm run campus', () => {
  it('init asks the questions, re-asks a bad answer, and writes a campus file that check accepts', async () => {
    const dataDir = temporaryFolder('campus-init-');
    const result = await run(['init'], { DATA_DIR: dataDir }, [
      'Pacific Crest University',
      'not a domain',
      'pcu.example.edu',
      'Mars/Olympus',
      'America/Los_Angeles',
      'College of Letters & Science, School of Engineering',
      '#ffcc00',
      '#0f6e62',
      'The PCU Student Computing Club',
    ]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const file = path.join(dataDir, 'campus.yaml');
    const campus = readCampusFile(file);
    expect(campus).toMatchObject({
      name: 'Pacific Crest University',
      emailDomain: 'pcu.example.edu',
      timeZone: 'America/Los_Angeles',
      theme: { primaryColor: '#0f6e62' },
      operator: { name: 'The PCU Student Computing Club' },
      schools: [
        { key: 'CollegeOfLettersScience', label: 'College of Letters & Science' },
        { key: 'SchoolOfEngineering', label: 'School of Engineering' },
      ],
    });
    expect(readFileSync(file, 'utf8')).toMatch(
      /yaml-language-server: \$schema=.*campus\.schema\.json/,
    );
    expect(result.out).toContain('is a valid campus');

    // Never over an existing file.
    const again = await run(['init'], { DATA_DIR: dataDir }, ['Other']);
    expect(again.code).toBe(73);
    expect(readCampusFile(file).name).toBe('Pacific Crest University');
  });

  it('check prints what students will see, or every problem with exit code 65', async () => {
    const dir = temporaryFolder('campus-check-');
    const good = await run(['check'], { DATA_DIR: dir });
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/Campus Books at University of Richmond/);
    expect(good.out).toMatch(/Time zone: America\/New_York/);

    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: X\ntimeZone: Nowhere\nschools: []\n');
    const refused = await run(['check', bad], {});
    expect(refused.code).toBe(65);
    expect(refused.err).toMatch(/timeZone: is not a time zone name/);
    expect(refused.err).toMatch(/schools: /);

    // The logo as the server checks it at start: a missing one is named before the server is.
    const noLogo = path.join(dir, 'no-logo.yaml');
    writeFileSync(
      noLogo,
      'name: X\ntimeZone: UTC\nschools: [{ key: a, label: A }]\ntheme: { logo: seal.svg }\n',
    );
    const missing = await run(['check', noLogo], {});
    expect(missing.code).toBe(65);
    expect(missing.err).toMatch(/theme\.logo: seal\.svg \(.*seal\.svg\) does not exist/);

    expect((await run(['nonsense'], {})).code).toBe(64);
  });

  it('makes a school key from a label', () => {
    expect(schoolKeyOf('Arts & Sciences')).toBe('ArtsSciences');
    expect(schoolKeyOf('École normale')).toBe('EcoleNormale');
    expect(schoolKeyOf('1st College')).toBe('S1stCollege');
  });
});
