import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setActiveCampus } from '@campus-books/common/active-campus';
import { dataOf } from '@campus-books/common/call-route';
import { brandPalette } from '@campus-books/common/campus-theme';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCaller } from '../../test/api-caller';
import { createWebTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { CampusConfigError, DEFAULT_CAMPUS_FILE, readCampusFile } from '../config/campus-file';
import { readCampusLogo } from '../config/campus-logo';
import { campusIcons } from './web-icons';

const CAMPUS_DIR = path.dirname(DEFAULT_CAMPUS_FILE);
const PACIFIC_CREST = path.join(CAMPUS_DIR, 'examples', 'pacific-crest.yaml');
const PUBLIC_DIR = fileURLToPath(new URL('../../../web/public/', import.meta.url));
const BUILT_ICONS = [
  'icon-192.png',
  'icon-512.png',
  'icon-maskable-512.png',
  'apple-touch-icon-180.png',
];

/** A build as vite writes it: the shell linking the build's icons, the manifest listing them. */
const BUILD: Record<string, string | Buffer> = {
  'index.html': `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="apple-touch-icon" href="/icons/apple-touch-icon-180.png" />
    <title>Campus Books</title></head><body><div id="root"></div></body></html>`,
  'manifest.webmanifest': JSON.stringify({
    name: 'Campus Books',
    icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' }],
  }),
  'favicon.svg': readFileSync(path.join(PUBLIC_DIR, 'favicon.svg')),
  ...Object.fromEntries(
    BUILT_ICONS.map((name) => [
      `icons/${name}`,
      readFileSync(path.join(PUBLIC_DIR, 'icons', name)),
    ]),
  ),
};

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose: string;
}

async function iconsOf(t: TestApp) {
  // Raw: the manifest and the page are the web app's files, outside the route table.
  const manifest = (await t.app.inject('/manifest.webmanifest')).json<{ icons: ManifestIcon[] }>();
  const html = (await t.app.inject('/')).body;
  const link = (rel: string) =>
    new RegExp(`<link rel="${rel}" href="([^"]+)"`).exec(html)?.[1] ?? null;
  return { manifest: manifest.icons, favicon: link('icon'), appleTouch: link('apple-touch-icon') };
}

/** The icon's pixels, decoded: its size and the colour at (x, y) as #rrggbb with its alpha. */
async function pixelOf(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  const hex = [data[at]!, data[at + 1]!, data[at + 2]!]
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('');
  return { width: info.width, height: info.height, colour: `#${hex}`, alpha: data[at + 3]! };
}

/** Two colours within a few units of each channel (the PNGs are palette-quantised). */
function near(colour: string, expected: string) {
  const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [a, b] = [channels(colour), channels(expected)];
  return a.every((c, i) => Math.abs(c - b[i]!) <= 6);
}

describe(`the campus's icons (${TEST_ENGINE})`, () => {
  let standard: TestApp;
  let crest: TestApp;
  let plain: TestApp;
  const folder = mkdtempSync(path.join(tmpdir(), 'campus-icons-'));

  beforeAll(async () => {
    standard = await createWebTestApp(BUILD);
    crest = await createWebTestApp(BUILD, { CAMPUS_CONFIG: PACIFIC_CREST });
    // Pacific Crest's colour without its logo: the build's book, recoloured.
    const withoutLogo = path.join(folder, 'campus.yaml');
    writeFileSync(withoutLogo, readFileSync(PACIFIC_CREST, 'utf8').replace(/^ {2}logo: .*$/m, ''));
    plain = await createWebTestApp(BUILD, { CAMPUS_CONFIG: withoutLogo });
  });
  afterAll(async () => {
    await Promise.all([standard.close(), crest.close(), plain.close()]);
    rmSync(folder, { recursive: true, force: true });
    // Loading a campus made it the process's: the next test files (same worker) run on the default.
    setActiveCampus(readCampusFile(DEFAULT_CAMPUS_FILE));
  });

  it("gives the default campus the build's own icons, at addresses with their version", async () => {
    const { manifest, favicon, appleTouch } = await iconsOf(standard);
    expect(favicon).toMatch(/^\/campus-icons\/favicon\.svg\?v=[\w-]{12}$/);
    expect(appleTouch).toMatch(/^\/campus-icons\/apple-touch-icon-180\.png\?v=[\w-]{12}$/);
    expect(manifest.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    const served = await standard.app.inject(favicon!);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.body).toBe(readFileSync(path.join(PUBLIC_DIR, 'favicon.svg'), 'utf8'));
    for (const icon of manifest) {
      const name = icon.src.slice('/campus-icons/'.length, icon.src.indexOf('?'));
      expect((await standard.app.inject(icon.src)).rawPayload).toEqual(BUILD[`icons/${name}`]);
    }
  });

  it("draws a campus's icons from its logo: real PNGs of each size, kept while their version holds", async () => {
    const own = await iconsOf(crest);
    const standardIcons = await iconsOf(standard);
    expect(own.favicon).toMatch(/^\/campus-icons\/favicon\.png\?v=[\w-]{12}$/);
    expect(own.manifest.map((i) => i.src)).not.toEqual(standardIcons.manifest.map((i) => i.src));
    const teal = '#0f6e62';
    for (const icon of own.manifest) {
      const res = await crest.app.inject(icon.src);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const size = Number(icon.sizes.split('x')[0]);
      const corner = await pixelOf(res.rawPayload, 0, 0);
      expect([corner.width, corner.height]).toEqual([size, size]);
      // The logo's sky (its teal circle above the crest), at the middle near the top of the logo.
      const share = icon.purpose === 'maskable' ? 0.56 : 1;
      const sky = await pixelOf(res.rawPayload, size / 2, Math.round(size * (0.5 - share * 0.4)));
      expect(near(sky.colour, teal), `${icon.src}: ${sky.colour}`).toBe(true);
      // An "any" icon is the logo alone; a maskable one an opaque square the launcher crops.
      if (icon.purpose === 'maskable')
        expect(corner).toMatchObject({ colour: '#ffffff', alpha: 255 });
      else expect(corner.alpha).toBe(0);
    }
    const apple = await pixelOf((await crest.app.inject(own.appleTouch!)).rawPayload, 0, 0);
    expect(apple).toMatchObject({ width: 180, height: 180, alpha: 255 });
    // An older page's address (another version) is answered the current icon, checked on every use.
    const stale = await crest.app.inject(own.manifest[0]!.src.replace(/\?v=.*/, '?v=older'));
    expect(stale.headers['cache-control']).toBe('no-cache');
  });

  it("sends the campus with its logo's address, where the logo file is answered", async () => {
    const campus = dataOf(await routeCaller(() => crest)('GET /api/campus'));
    const address = campus.theme.logo ?? '';
    expect(address).toMatch(/^\/campus-icons\/logo\.svg\?v=[\w-]{12}$/);
    const html = (await crest.app.inject('/')).body;
    expect(html).toContain(`"logo":"${address}"`);
    const logo = await crest.app.inject(address);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.body).toBe(
      readFileSync(path.join(CAMPUS_DIR, 'examples', 'pacific-crest-logo.svg'), 'utf8'),
    );
  });

  it("recolours the build's book with the campus's colour when it has no logo", async () => {
    const { manifest, favicon } = await iconsOf(plain);
    const palette = brandPalette('#0f6e62');
    const svg = (await plain.app.inject(favicon!)).body;
    expect(svg).toContain(palette[700]);
    expect(svg).toContain(palette[200]);
    expect(svg).not.toMatch(/#1c46a3|#bcd1fb/i);
    for (const icon of manifest) {
      const size = Number(icon.sizes.split('x')[0]);
      const bytes = (await plain.app.inject(icon.src)).rawPayload;
      // The square's edge (inside its rounded corners), then the book's light page.
      const edge = await pixelOf(bytes, size / 2, Math.round(size * 0.05));
      expect(near(edge.colour, palette[700]), `${icon.src}: ${edge.colour}`).toBe(true);
      const page = await pixelOf(bytes, Math.round(size * 0.6), size / 2);
      expect(near(page.colour, palette[200]), `${icon.src}: ${page.colour}`).toBe(true);
    }
  });
});

describe("a logo the icons' renderer cannot draw", () => {
  it('stops the start, naming the campus file and the logo', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'campus-icons-'));
    try {
      const file = path.join(folder, 'campus.yaml');
      writeFileSync(
        path.join(folder, 'logo.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg"><path d=',
      );
      const campus = readCampusFile(PACIFIC_CREST);
      const broken = { ...campus, theme: { ...campus.theme, logo: 'logo.svg' } };
      const logo = readCampusLogo(broken, file);
      const started = campusIcons({
        campus: broken,
        logo,
        campusFile: file,
        distDir: folder,
        warn: () => undefined,
      });
      await expect(started).rejects.toBeInstanceOf(CampusConfigError);
      await expect(started).rejects.toThrow(/theme\.logo: .*logo\.svg cannot be drawn as an image/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
