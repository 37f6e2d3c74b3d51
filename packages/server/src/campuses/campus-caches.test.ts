import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusDomainOf } from '../../test/campuses';
import { TEST_ENGINE, TEST_WEB_SHELL } from '../../test/helpers';
import { parseScrape } from '../../test/support/prometheus-text';
import { rendered } from '../../test/support/stand-in-renderer';
import {
  CAMPUS_KEYS,
  openTwoCampuses,
  type CampusKey,
  type TwoCampuses,
} from '../../test/two-campuses';
import { catalogueNotification } from './campus-catalogue';
import { dataOf } from '@campus-books/common/call-route';

const STAND_IN = fileURLToPath(new URL('../../test/support/stand-in-renderer.ts', import.meta.url));
/** Alpha's own product name and colour; beta keeps the test campus's. */
const ALPHA_PRODUCT = 'Alpha Book Swap';
const ALPHA_COLOUR = '#1f5130';
const PUBLIC_DIR = fileURLToPath(new URL('../../../web/public/', import.meta.url));
const BUILT_ICONS = ['icons/icon-192.png', 'icons/icon-512.png', 'icons/icon-maskable-512.png'];
const BUILT_MANIFEST = JSON.stringify({
  name: 'Built',
  short_name: 'Built',
  display: 'standalone',
});

describe('catalogue notifications name their campus', () => {
  it("reads a campus's payload and the default campus's", () => {
    expect(catalogueNotification('17')).toEqual({ scope: '', version: 17 });
    expect(catalogueNotification('campus_alpha:4')).toEqual({ scope: 'campus_alpha', version: 4 });
    expect(catalogueNotification('campus_Alpha:4')).toBeNull();
    expect(catalogueNotification('public:4')).toBeNull();
    expect(catalogueNotification('campus_alpha:x')).toBeNull();
  });
});

// The caches, web shell and metrics of a many-campus installation (decision 024), on PostgreSQL:
// each campus keeps its own answers and pages, a change on one campus empties its own only.
describe.skipIf(TEST_ENGINE !== 'postgres')('caches, web shell and metrics per campus', () => {
  let two: TwoCampuses;
  let app: FastifyInstance;
  let admin: pg.Client;
  let distDir: string;
  const listings = {} as Record<CampusKey, string>;
  const cookies = {} as Record<CampusKey, string>;
  const names = { alpha: 'Alpha Organic Chemistry', beta: 'Beta Organic Chemistry' };

  const get = (key: CampusKey, url: string, headers: Record<string, string> = {}) =>
    two.send(key, 'GET', url, { headers });
  const searchNames = async (key: CampusKey) => {
    const answer = await two.call(key, 'GET /api/listing/get', {
      query: { searchTerm: 'organic' },
    });
    return dataOf(answer).map((l) => l.name);
  };
  /** The listing names of the signed-out home page (the stand-in renders its data) and its renders. */
  const homePage = async (key: CampusKey) => {
    const before = rendered.length;
    const res = await get(key, '/');
    expect(res.statusCode).toBe(200);
    return { body: res.body, renders: rendered.length - before };
  };
  /** Renames a listing without moving its campus's catalogue version: only a kept answer hides it. */
  const renameSilently = async (key: CampusKey, name: string) => {
    await admin.query(`ALTER TABLE campus_${key}.listings DISABLE TRIGGER catalogue_version_bump`);
    await admin.query(`UPDATE campus_${key}.listings SET name = $1 WHERE id = $2`, [
      name,
      listings[key],
    ]);
    await admin.query(`ALTER TABLE campus_${key}.listings ENABLE TRIGGER catalogue_version_bump`);
  };
  /** Each campus's seller moderates it (the list is the process's). */
  const sellerOf = (key: CampusKey) => `seller.${key}@${campusDomainOf(key)}`;

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(tmpdir(), 'cb-web-dist-'));
    writeFileSync(path.join(distDir, 'index.html'), TEST_WEB_SHELL);
    writeFileSync(path.join(distDir, 'manifest.webmanifest'), BUILT_MANIFEST);
    // The build's artwork and icons: a campus in another colour gets them drawn in its own.
    mkdirSync(path.join(distDir, 'icons'));
    for (const name of ['favicon.svg', ...BUILT_ICONS])
      copyFileSync(path.join(PUBLIC_DIR, name), path.join(distDir, name));
    two = await openTwoCampuses({
      env: {
        METRICS: 'on',
        PAGE_CACHE_MB: '4',
        MODERATOR_EMAILS: CAMPUS_KEYS.map(sellerOf).join(','),
      },
      webDistDir: distDir,
      webServerEntry: STAND_IN,
      campusFields: {
        alpha: { productName: ALPHA_PRODUCT, theme: { primaryColor: ALPHA_COLOUR } },
      },
    });
    ({ app, admin } = two);
    for (const key of CAMPUS_KEYS) {
      const seller = await two.studentOf(key, { email: sellerOf(key) });
      cookies[key] = seller.cookie;
      listings[key] = await two.listingOf(key, seller, { name: names[key] });
    }
  });
  afterAll(async () => {
    await two?.close();
    if (distDir) rmSync(distDir, { recursive: true, force: true });
  });

  it("keeps each campus's searches and signed-out pages, and a write on one empties its own only", async () => {
    const written = 'Alpha Organic Chemistry, written';
    // Asked once on each host: each campus's own answer and page.
    for (const key of CAMPUS_KEYS) {
      expect(await searchNames(key)).toEqual([names[key]]);
      const page = await homePage(key);
      expect(page.renders).toBe(1);
      expect(page.body).toContain(names[key]);
    }
    // Changed beneath the caches (no catalogue version moved): what each host answers now is
    // what it kept, its own, never the other host's.
    await renameSilently('alpha', 'Alpha renamed unseen');
    await renameSilently('beta', 'Beta renamed unseen');
    for (const key of CAMPUS_KEYS) {
      expect(await searchNames(key)).toEqual([names[key]]);
      const page = await homePage(key);
      expect(page.renders).toBe(0);
      expect(page.body).toContain(names[key]);
    }

    // A write on alpha (outside its search path): its trigger moves alpha's version, not the
    // default campus's, and names alpha in the notification.
    const versions = async () =>
      (
        await admin.query<{ campus: string; version: string }>(
          `SELECT 'public' AS campus, version FROM public.catalogue_version UNION ALL
           SELECT 'alpha', version FROM campus_alpha.catalogue_version UNION ALL
           SELECT 'beta', version FROM campus_beta.catalogue_version`,
        )
      ).rows;
    const before = await versions();
    await admin.query('LISTEN catalogue');
    const heard = new Promise<string>((resolve) =>
      admin.once('notification', (message) => resolve(message.payload ?? '')),
    );
    await admin.query(`UPDATE campus_alpha.listings SET name = $1 WHERE id = $2`, [
      written,
      listings.alpha,
    ]);
    const after = await versions();
    const alphaVersion = Number(after[1]!.version);
    expect(alphaVersion).toBe(Number(before[1]!.version) + 1);
    expect([after[0], after[2]]).toEqual([before[0], before[2]]);
    expect(catalogueNotification(await heard)).toEqual({
      scope: 'campus_alpha',
      version: alphaVersion,
    });

    // Alpha's caches are emptied: its next search and page are read and rendered again.
    expect(await searchNames('alpha')).toEqual([written]);
    const alphaPage = await homePage('alpha');
    expect(alphaPage.renders).toBe(1);
    expect(alphaPage.body).toContain(written);
    // Beta's stay warm: still what it kept before its silent rename.
    expect(await searchNames('beta')).toEqual([names.beta]);
    const betaPage = await homePage('beta');
    expect(betaPage.renders).toBe(0);
    expect(betaPage.body).toContain(names.beta);
  });

  it("keeps each campus's listing by id apart, though both hold a listing of that id", async () => {
    // Beta gets a copy of alpha's listing under the same id (as a campus copied from another has),
    // with its own seller and name; its trigger writes the copy's stored answer.
    const betaCopy = 'Beta copy under the same id';
    const id = listings.alpha;
    await admin.query(
      `CREATE TEMP TABLE copied AS SELECT * FROM campus_alpha.listings WHERE id = $1`,
      [id],
    );
    await admin.query(
      `UPDATE copied SET name = $1,
         user_id = (SELECT id FROM campus_beta.users WHERE email = $2)`,
      [betaCopy, sellerOf('beta')],
    );
    // Every column but the generated ones (the search's words), which the insert computes.
    const { rows: columns } = await admin.query<{ name: string }>(
      `SELECT quote_ident(column_name) AS name FROM information_schema.columns
       WHERE table_schema = 'campus_beta' AND table_name = 'listings' AND is_generated = 'NEVER'`,
    );
    const list = columns.map((c) => c.name).join(', ');
    await admin.query(`INSERT INTO campus_beta.listings (${list}) SELECT ${list} FROM copied`);
    await admin.query(`DROP TABLE copied`);
    const alphaName = (
      await admin.query<{ name: string }>(`SELECT name FROM campus_alpha.listings WHERE id = $1`, [
        id,
      ])
    ).rows[0]!.name;
    const nameOn = async (key: CampusKey) => {
      const answer = await two.call(key, 'GET /api/listing/get/:id', { params: { id } });
      return dataOf(answer).name;
    };
    // Each host its own row, the second time from what it kept, in either order.
    for (const round of [1, 2]) {
      const order: CampusKey[] = round === 1 ? ['alpha', 'beta'] : ['beta', 'alpha'];
      for (const key of order)
        expect(await nameOn(key)).toBe(key === 'alpha' ? alphaName : betaCopy);
    }
  });

  it('answers each host its own shell, manifest and palette', async () => {
    const shells = {} as Record<CampusKey, string>;
    for (const key of CAMPUS_KEYS) {
      const shell = await get(key, '/sell');
      expect(shell.statusCode).toBe(200);
      shells[key] = shell.body;
      expect(shell.body).toContain(`students at ${key} University`);
    }
    expect(shells.alpha).toContain(`<title>${ALPHA_PRODUCT}</title>`);
    expect(shells.beta).not.toContain(ALPHA_PRODUCT);

    const manifests = {} as Record<CampusKey, { name: string; theme_color: string }>;
    for (const key of CAMPUS_KEYS) {
      const res = await get(key, '/manifest.webmanifest');
      expect(res.statusCode).toBe(200);
      manifests[key] = res.json();
      // The one precached by the worker is the same shell.
      const index = await get(key, '/index.html');
      expect(index.body).toContain(`students at ${key} University`);
    }
    expect(manifests.alpha.name).toBe(`${ALPHA_PRODUCT} · alpha University`);
    expect(manifests.beta.name).toMatch(/ · beta University$/);
    expect(manifests.alpha.theme_color).not.toBe(manifests.beta.theme_color);

    const palettes = {} as Record<CampusKey, string>;
    for (const key of CAMPUS_KEYS) {
      const href = /href="(\/campus\.css\?v=[^"]+)"/.exec(shells[key])![1]!;
      const css = await get(key, href);
      expect(css.statusCode).toBe(200);
      expect(css.headers['cache-control']).toContain('immutable');
      palettes[key] = css.body;
    }
    expect(palettes.alpha).not.toBe(palettes.beta);

    // Each host's icons: its shell's favicon and its manifest's icons, in its own colours.
    const icons = {} as Record<CampusKey, string[]>;
    for (const key of CAMPUS_KEYS) {
      const favicon = /<link rel="icon" href="([^"]+)"/.exec(shells[key])![1]!;
      const addresses = [
        favicon,
        ...(manifests[key] as unknown as { icons: { src: string }[] }).icons.map((i) => i.src),
      ];
      expect(addresses.length).toBeGreaterThan(1);
      icons[key] = [];
      for (const address of addresses) {
        expect(address).toMatch(/^\/campus-icons\/[a-z0-9-]+\.(svg|png)\?v=/);
        const res = await get(key, address);
        expect(res.statusCode, address).toBe(200);
        expect(res.headers['cache-control']).toContain('immutable');
        icons[key].push(res.rawPayload.toString('base64'));
      }
    }
    expect(icons.alpha[0]).not.toBe(icons.beta[0]);
    expect(icons.alpha[1]).not.toBe(icons.beta[1]);
  });

  it("counts a campus's searches that found nothing in its own statistics only", async () => {
    const term = 'quantum basketweaving';
    for (let i = 0; i < 2; i += 1) {
      const res = await get('alpha', `/api/listing/get?searchTerm=${encodeURIComponent(term)}`);
      expect(res.json()).toEqual([]);
    }
    // Beta's statistics first: they write what this server counted, each campus's into its own.
    const missed = {} as Record<CampusKey, { term: string; count: number }[]>;
    for (const key of ['beta', 'alpha'] as const) {
      const answer = await two.call(key, 'GET /api/statistics', { as: { cookie: cookies[key] } });
      missed[key] = dataOf(answer).topMissedSearches;
    }
    expect(missed.alpha).toContainEqual({ term, count: 2 });
    expect(missed.beta.map((m) => m.term)).not.toContain(term);
  });

  it("sweeps every campus's finished rate-limit windows, each campus's counters its own", async () => {
    for (const key of CAMPUS_KEYS) {
      await admin.query(
        `INSERT INTO campus_${key}.rate_limits (key, window_start, count, expires_at)
         VALUES ('test:finished', 0, 1, 1), ('test:running', 0, 1, $1)`,
        [Date.now() + 3_600_000],
      );
    }
    expect(await app.limits.sweep()).toBeGreaterThanOrEqual(2);
    for (const key of CAMPUS_KEYS) {
      const { rows } = await admin.query<{ key: string }>(
        `SELECT key FROM campus_${key}.rate_limits WHERE key LIKE 'test:%'`,
      );
      expect(rows).toEqual([{ key: 'test:running' }]);
    }
    // A campus's limit counts under its schema, in its own table.
    const { rows } = await admin.query<{ key: string }>(
      `SELECT key FROM campus_alpha.rate_limits WHERE key NOT LIKE 'test:%'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.key.startsWith('campus_alpha:'))).toBe(true);
  });

  it('labels each request of /metrics with its campus', async () => {
    const token = readFileSync(path.join(two.t.dataDir, 'metrics-token'), 'utf8').trim();
    /** Searches counted so far, by campus label. */
    const counted = async () => {
      const res = await get('alpha', '/metrics', { authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(200);
      const scrape = parseScrape(res.body);
      const count = (campus: string) =>
        scrape
          .find('http_request_duration_seconds_count', { route: '/api/listing/get', campus })
          .reduce((sum, sample) => sum + sample.value, 0);
      return { alpha: count('alpha'), beta: count('beta') };
    };
    const before = await counted();
    await get('alpha', '/api/listing/get');
    await get('beta', '/api/listing/get');
    await get('beta', '/api/listing/get');
    const after = await counted();
    expect({ alpha: after.alpha - before.alpha, beta: after.beta - before.beta }).toEqual({
      alpha: 1,
      beta: 2,
    });
  });
});
