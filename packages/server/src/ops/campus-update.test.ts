import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callRoute, dataOf } from '@campus-books/common/call-route';
import { appInjector } from '../../test/api-caller';
import { campusCommand, writeCampusFiles } from '../../test/campuses';
import { TEST_ENGINE, TEST_WEB_SHELL } from '../../test/helpers';
import { rendered } from '../../test/support/stand-in-renderer';
import {
  CAMPUS_HOSTS,
  openTwoCampuses,
  type CampusStudent,
  type TwoCampuses,
} from '../../test/two-campuses';
import { TEST_CAMPUS_FILE } from '../../test/use-default-campus';
import { readDirectory } from '../campuses/campus-directory';
import { readCampusFile } from '../config/campus-file';
import { temporaryFolder } from '../../test/temporary-folders';

const STAND_IN = fileURLToPath(new URL('../../test/support/stand-in-renderer.ts', import.meta.url));
const ALPHA_NAME = 'Alpha State College';
const ALPHA_NEW = 'books.alpha-new.example';
const ALPHA_THIRD = 'books.alpha-third.example';
/** A word of this suite's listings' names, so its searches find its listings only. */
const WORD = 'Thermodynamics';
const BASE = readCampusFile(TEST_CAMPUS_FILE);

// `npm run campus -- update` (issue 45, decision 024), on PostgreSQL: a registered campus's file
// or hosts change while an app server runs, which follows the directory's NOTIFY.
describe.skipIf(TEST_ENGINE !== 'postgres')('campus update', () => {
  let two: TwoCampuses;
  let distDir: string;
  const files: ReturnType<typeof writeCampusFiles>[] = [];
  const students = {} as Record<'alpha' | 'beta', CampusStudent>;
  const listings = {} as Record<'alpha' | 'beta', string>;
  /** Where alpha is served now. */
  let alphaHost: string = CAMPUS_HOSTS.alpha;

  /** A campus file: the suite's campus `key` with `fields` over it. */
  const fileOf = (key: string, fields: Record<string, unknown>) => {
    const written = writeCampusFiles([key], { [key]: fields });
    files.push(written);
    return written.files[key]!;
  };
  const update = (key: string, ...args: string[]) =>
    campusCommand(two.url, 'update', key, ...args, '--settle-ms', '0');
  const nameAt = async (host: string) => {
    const answer = await callRoute(appInjector(two.app), 'GET /api/campus', { headers: { host } });
    return answer.ok ? answer.data.name : answer.status;
  };
  const entryOf = async (key: string) =>
    (await readDirectory(two.admin)).find((campus) => campus.key === key)!;
  const searchAt = async (host: string) =>
    dataOf(
      await callRoute(appInjector(two.app), 'GET /api/listing/get', {
        query: { searchTerm: WORD },
        headers: { host },
      }),
    );
  const homePage = async (host: string) => {
    const before = rendered.length;
    const res = await two.send(host, 'GET', '/');
    expect(res.statusCode).toBe(200);
    return { body: res.body, renders: rendered.length - before };
  };

  beforeAll(async () => {
    distDir = temporaryFolder('cb-web-dist-');
    writeFileSync(path.join(distDir, 'index.html'), TEST_WEB_SHELL);
    two = await openTwoCampuses({
      env: { PAGE_CACHE_MB: '4' },
      webDistDir: distDir,
      webServerEntry: STAND_IN,
    });
    for (const key of ['alpha', 'beta'] as const) {
      students[key] = await two.studentOf(key);
      listings[key] = await two.listingOf(key, students[key], { name: `${WORD} of ${key}` });
    }
  }, 120_000);
  afterAll(async () => {
    await two?.close();
    for (const written of files) written.remove();
  });

  it('prints the usage without a file or a host, and refuses a campus not registered', async () => {
    expect((await campusCommand(two.url, 'update', 'alpha')).code).toBe(64);
    expect((await campusCommand(two.url, 'update', '--host', ALPHA_NEW)).code).toBe(64);
    const unknown = await update('gamma', '--host', ALPHA_NEW);
    expect(unknown.code).toBe(65);
    expect(unknown.err).toMatch(/no campus "gamma" is registered/);
    const invalid = await update('alpha', '--config', fileOf('alpha', { timeZone: 'Mars/Base' }));
    expect(invalid.code).toBe(65);
    expect(invalid.err).toMatch(/timeZone: is not a time zone name/);
    expect(await nameAt(CAMPUS_HOSTS.alpha)).toBe('alpha University');
  });

  it('renames a campus and moves its host: the running app follows, its kept pages emptied', async () => {
    const kept = await homePage(alphaHost);
    expect(kept.body).toContain('alpha University');
    expect((await homePage(alphaHost)).renders).toBe(0);

    const res = await update(
      'alpha',
      '--config',
      fileOf('alpha', { name: ALPHA_NAME }),
      '--host',
      ALPHA_NEW,
    );
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain(
      `Updated campus alpha: name "alpha University" → "${ALPHA_NAME}"; ` +
        `hosts ${CAMPUS_HOSTS.alpha} → ${ALPHA_NEW}.`,
    );
    await vi.waitFor(async () => expect(await nameAt(ALPHA_NEW)).toBe(ALPHA_NAME));
    expect(await nameAt(CAMPUS_HOSTS.alpha)).toBe(421);
    alphaHost = ALPHA_NEW;

    // The signed-out page is rendered again, with the new name; so is the shell.
    const page = await homePage(alphaHost);
    expect(page.renders).toBe(1);
    expect(page.body).toContain(ALPHA_NAME);
    expect(page.body).not.toContain('alpha University');
    expect((await two.send(alphaHost, 'GET', '/sell')).body).toContain(ALPHA_NAME);
    const entry = await entryOf('alpha');
    expect([entry.config.name, entry.hosts]).toEqual([ALPHA_NAME, [ALPHA_NEW]]);
  });

  it("shares once both campuses' updates name each other: the partner's listings are found", async () => {
    expect((await searchAt(alphaHost)).map((l) => l._id)).toEqual([listings.alpha]);
    const alpha = await update(
      'alpha',
      '--config',
      fileOf('alpha', { name: ALPHA_NAME, consortium: { share: ['beta'] } }),
    );
    expect(alpha.code, alpha.err).toBe(0);
    // One side only shares nothing, and says so.
    expect(alpha.out).toContain('shares with nobody (was nobody)');
    expect(alpha.err).toMatch(/campus "alpha" shares with "beta", which does not share back/);
    await vi.waitFor(() =>
      expect(two.installation.routing.campusOfHost(alphaHost)!.config.consortium).toBeDefined(),
    );
    expect((await searchAt(alphaHost)).map((l) => l._id)).toEqual([listings.alpha]);

    const beta = await update(
      'beta',
      '--config',
      fileOf('beta', { consortium: { share: ['alpha'] } }),
    );
    expect(beta.code, beta.err).toBe(0);
    expect(beta.out).toContain('shares with alpha (was nobody)');
    expect(beta.err).toBe('');
    await vi.waitFor(async () => expect(await searchAt(alphaHost)).toHaveLength(2));
    const onAlpha = await searchAt(alphaHost);
    expect(onAlpha.find((l) => l._id === listings.beta)!.campus).toEqual({
      key: 'beta',
      name: 'beta University',
      url: `http://${CAMPUS_HOSTS.beta}`,
    });
    const onBeta = await searchAt(CAMPUS_HOSTS.beta);
    expect(onBeta.find((l) => l._id === listings.alpha)!.campus).toEqual({
      key: 'alpha',
      name: ALPHA_NAME,
      url: `http://${ALPHA_NEW}`,
    });
  });

  it('refuses a file that drops keys the campus still stores, naming the rows, writing nothing', async () => {
    const school = BASE.schools[1]!.key;
    const spot = BASE.meetupSpots[0]!.id;
    const subject = BASE.subjects[0]!.code;
    const { rows: talks } = await two.admin.query<{ id: string }>(
      `INSERT INTO campus_alpha.conversations (listing_name) VALUES ('a talk') RETURNING id`,
    );
    const { rows: meetups } = await two.admin.query<{ id: string }>(
      `INSERT INTO campus_alpha.meetups (conversation_id, spot_id, starts_at)
       VALUES ($1, $2, now()) RETURNING id`,
      [talks[0]!.id, spot],
    );
    const { rows: alerts } = await two.admin.query<{ id: string }>(
      `INSERT INTO campus_alpha.alerts (user_id, subject) VALUES ($1, $2) RETURNING id`,
      [students.alpha.id, subject],
    );
    const before = await entryOf('alpha');
    const dropped = fileOf('alpha', {
      name: 'Alpha Dropped',
      schools: BASE.schools.filter((s) => s.key !== school),
      subjects: BASE.subjects.filter((s) => s.code !== subject),
      meetupSpots: BASE.meetupSpots.filter((s) => s.id !== spot),
    });
    const res = await update('alpha', '--config', dropped, '--host', ALPHA_THIRD);
    expect(res.code).toBe(65);
    expect(res.err).toContain('nothing was written');
    expect(res.err).toContain(`${school}: listings, 1 row(s): ${listings.alpha}`);
    expect(res.err).toContain(`${subject}: alerts, 1 row(s): ${alerts[0]!.id}`);
    expect(res.err).toContain(`${spot}: meetups, 1 row(s): ${meetups[0]!.id}`);
    expect(await entryOf('alpha')).toEqual(before);
    expect(await nameAt(alphaHost)).toBe(ALPHA_NAME);
    expect(await nameAt(ALPHA_THIRD)).toBe(421);
  });

  it("refuses another campus's host (73), the campus's hosts unchanged", async () => {
    const res = await update('beta', '--host', 'books.beta-two.example', '--host', alphaHost);
    expect(res.code).toBe(73);
    expect(res.err).toContain(`${alphaHost} is campus "alpha"'s already`);
    expect((await entryOf('beta')).hosts).toEqual([CAMPUS_HOSTS.beta]);
  });

  it('lands both of two updates of one campus sent at once', async () => {
    const renamed = fileOf('alpha', { name: 'Alpha Again', consortium: { share: ['beta'] } });
    const before = await entryOf('alpha');
    const [file, hosts] = await Promise.all([
      update('alpha', '--config', renamed),
      update('alpha', '--host', ALPHA_THIRD),
    ]);
    expect([file.code, file.err, hosts.code, hosts.err]).toEqual([0, '', 0, '']);
    const entry = await entryOf('alpha');
    expect([entry.config.name, entry.hosts]).toEqual(['Alpha Again', [ALPHA_THIRD]]);
    expect({ ...entry.config, name: ALPHA_NAME }).toEqual(before.config);
    await vi.waitFor(async () => expect(await nameAt(ALPHA_THIRD)).toBe('Alpha Again'));
    expect(await nameAt(alphaHost)).toBe(421);
  });

  it("refuses a file whose SAML entity ID is another campus's (73), the file unchanged", async () => {
    const certFile = path.join(temporaryFolder('cb-idp-'), 'idp.pem');
    writeFileSync(certFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const samlFile = (key: 'alpha' | 'beta', spEntityId?: string) =>
      fileOf(key, {
        sso: {
          protocol: 'saml',
          saml: {
            idpSsoUrl: 'https://idp.example/sso',
            idpEntityId: 'https://idp.example/idp',
            idpCertFile: certFile,
            ...(spEntityId ? { spEntityId } : {}),
          },
        },
      });
    // Beta's entity ID is its address's (its file names none).
    expect((await update('beta', '--config', samlFile('beta'))).code).toBe(0);
    const before = await entryOf('alpha');
    const taken = `http://${CAMPUS_HOSTS.beta}/api/sso/saml/metadata`;
    const res = await update('alpha', '--config', samlFile('alpha', taken));
    expect(res.code).toBe(73);
    expect(res.err).toContain(`is campus "beta"'s SAML entity ID already`);
    expect(await entryOf('alpha')).toEqual(before);

    const own = await update('alpha', '--config', samlFile('alpha', 'https://alpha.example/sp'));
    expect([own.code, own.err]).toEqual([0, '']);
    expect((await entryOf('alpha')).config.sso?.saml?.spEntityId).toBe('https://alpha.example/sp');

    // `campus add` makes the same check, before it creates anything.
    const gammaFile = fileOf('gamma', {
      sso: {
        protocol: 'saml',
        saml: {
          idpSsoUrl: 'https://idp.example/sso',
          idpEntityId: 'https://idp.example/idp',
          idpCertFile: certFile,
          spEntityId: 'HTTPS://Alpha.example/sp',
        },
      },
    });
    const added = await campusCommand(
      two.url,
      'add',
      'gamma',
      '--host',
      'books.gamma.example',
      '--config',
      gammaFile,
    );
    expect(added.code).toBe(73);
    expect(added.err).toContain(`is campus "alpha"'s SAML entity ID already`);
    expect((await readDirectory(two.admin)).map((campus) => campus.key)).not.toContain('gamma');
    const { rows: schemas } = await two.admin.query(
      `SELECT 1 FROM pg_namespace WHERE nspname = 'campus_gamma'`,
    );
    expect(schemas).toHaveLength(0);
  });
});
