import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setActiveCampus } from '@campus-books/common/active-campus';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from './campus-file';
import { CAMPUS_LOGO_MAX_BYTES } from './campus-logo';
import { ConfigError, loadConfig } from './config';

const PACIFIC_CREST = path.join(
  path.dirname(DEFAULT_CAMPUS_FILE),
  'examples',
  'pacific-crest.yaml',
);
const SVG = (inside: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inside}</svg>`;

describe("the campus's logo, checked at start", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  // Loading a campus makes it the process's: the next test files (same worker) run on the default.
  afterAll(() => setActiveCampus(readCampusFile(DEFAULT_CAMPUS_FILE)));

  /**
   * The settings' problems for Pacific Crest with `logo` written as `name` beside the file (null: a
   * folder of that name; undefined: nothing).
   */
  function problemsWith(name: string, logo?: string | Buffer | null): string[] {
    const folder = mkdtempSync(path.join(tmpdir(), 'campus-logo-'));
    dirs.push(folder);
    const campusFile = path.join(folder, 'campus.yaml');
    const source = readFileSync(PACIFIC_CREST, 'utf8');
    writeFileSync(campusFile, source.replace(/^ {2}logo: .*$/m, `  logo: ${name}`));
    if (logo === null) mkdirSync(path.join(folder, name), { recursive: true });
    else if (logo !== undefined) writeFileSync(path.join(folder, name), logo);
    try {
      loadConfig({ DATA_DIR: folder, CAMPUS_CONFIG: campusFile });
      return [];
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return error.problems;
    }
  }

  it('reads it beside the campus file and sends its address in its place', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'campus-logo-'));
    dirs.push(folder);
    const config = loadConfig({ DATA_DIR: folder, CAMPUS_CONFIG: PACIFIC_CREST });
    expect(config.campusLogo?.file).toBe(
      path.join(path.dirname(PACIFIC_CREST), 'pacific-crest-logo.svg'),
    );
    expect(config.campus.theme.logo).toBe(config.campusLogo?.address);
    expect(config.campus.theme.logo).toMatch(/^\/campus-icons\/logo\.svg\?v=[\w-]{12}$/);
  });

  it('refuses one that is missing or a folder, naming the file', () => {
    expect(problemsWith('art/logo.svg')).toEqual([
      expect.stringMatching(
        /campus file .*campus\.yaml: theme\.logo: art\/logo\.svg \(.*\) does not exist$/,
      ),
    ]);
    expect(problemsWith('art', null)).toEqual([
      expect.stringMatching(/theme\.logo: art \(.*\) is a folder$/),
    ]);
  });

  it('refuses an SVG that could run or fetch anything', () => {
    const cases: [string, string][] = [
      [SVG('<script>alert(1)</script>'), 'a <script> element'],
      [SVG('<rect width="10" height="10" onload="alert(1)"/>'), 'an event handler attribute'],
      [SVG('<a href="javascript:alert(1)"><rect width="1" height="1"/></a>'), 'javascript:'],
      [SVG('<foreignObject><div/></foreignObject>'), '<foreignObject>'],
      [SVG('<image href="https://tracker.example/pixel.png"/>'), 'a link to another file'],
      [SVG('<image xlink:href="//tracker.example/p.png"/>'), 'a link to another file'],
      [SVG('<rect style="fill:url(https://tracker.example/p)"/>'), 'a style that loads'],
    ];
    for (const [svg, named] of cases) {
      const [problem, ...more] = problemsWith('logo.svg', svg);
      expect(more).toEqual([]);
      expect(problem).toContain('theme.logo: logo.svg');
      expect(problem).toContain(named);
    }
    expect(
      problemsWith('logo.svg', SVG('<use href="#a"/><circle id="a" r="4" fill="url(#g)"/>')),
    ).toEqual([]);
  });

  it('refuses what is not a PNG or an SVG, too small, too large or too heavy', async () => {
    expect(problemsWith('logo.gif', 'GIF89a')[0]).toMatch(/is neither a PNG nor an SVG image$/);
    const png = (side: number) =>
      sharp({ create: { width: side, height: side, channels: 3, background: '#0f6e62' } })
        .png()
        .toBuffer();
    expect(problemsWith('logo.png', await png(64))[0]).toMatch(
      /is 64×64 pixels: at least 192 wide or high/,
    );
    expect(problemsWith('logo.png', await png(5000))[0]).toMatch(
      /is 5000×5000 pixels: at most 4096 on each side/,
    );
    expect(problemsWith('logo.png', await png(256))).toEqual([]);
    const heavy = SVG(`<!-- ${'x'.repeat(CAMPUS_LOGO_MAX_BYTES)} -->`);
    expect(problemsWith('logo.svg', heavy)[0]).toMatch(/KB: at most 1 MB$/);
  });
});
