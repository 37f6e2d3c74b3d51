/**
 * The campus's icons (docs/adopt.md): the favicon, the apple-touch-icon and the web app manifest's
 * icons, made at start from the campus's logo, or without one from the build's favicon.svg (the
 * product's book) in the campus's colours; the default campus keeps the build's own files. Each is
 * answered at an address with a hash of its bytes, so a browser, an installed app and the service
 * worker (which precaches none of them) fetch a changed icon at once and keep an unchanged one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CampusConfig } from '@campus-books/common/campus-config';
import {
  brandPalette,
  DEFAULT_PRIMARY_COLOR,
  THEME_COLOR_SHADE,
} from '@campus-books/common/campus-theme';
import type { FastifyInstance } from 'fastify';
import type sharpModule from 'sharp';
import type { Sharp } from 'sharp';
import { CampusConfigError } from '../config/campus-file';
import type { CampusLogo } from '../config/campus-logo';
import { registerVersionedFile } from './web-assets';

export const CAMPUS_ICONS_FOLDER = '/campus-icons';

/** Where an icon goes: the page's head (`icon`, `apple-touch-icon`) or the manifest's icons. */
type IconUse = 'icon' | 'apple-touch-icon' | 'manifest';

export interface CampusIcon {
  use: IconUse;
  /** Its address without the version (`/campus-icons/icon-192.png`). */
  path: string;
  type: 'image/png' | 'image/svg+xml';
  bytes: Buffer;
  /** `path?v=<hash of the bytes>`: what the head and the manifest link. */
  address: string;
  sizes?: string;
  purpose?: 'any' | 'maskable';
}

/** A PNG of the set: its file name, side, and how it is drawn (a full-bleed square or not). */
interface PngIcon {
  use: IconUse;
  name: string;
  size: number;
  purpose?: 'any' | 'maskable';
  /** Drawn on an opaque square, the artwork inside the part every launcher's mask keeps. */
  opaque: boolean;
}

const PNG_ICONS: readonly PngIcon[] = [
  // iOS ignores the manifest's icons and lays its own mask over an opaque square.
  { use: 'apple-touch-icon', name: 'apple-touch-icon-180.png', size: 180, opaque: true },
  { use: 'manifest', name: 'icon-192.png', size: 192, purpose: 'any', opaque: false },
  { use: 'manifest', name: 'icon-512.png', size: 512, purpose: 'any', opaque: false },
  { use: 'manifest', name: 'icon-maskable-512.png', size: 512, purpose: 'maskable', opaque: true },
];
/** The share of an opaque icon a logo takes: a maskable icon keeps the centre circle of 80 %. */
const LOGO_SHARE = { 'apple-touch-icon': 0.8, maskable: 0.56 } as const;
const LOGO_BACKGROUND = '#ffffff';
const FAVICON_PIXELS = 64;
/** The colours of the build's favicon.svg: the default campus's shades 700 (square) and 200 (page). */
const ARTWORK_SHADES = [THEME_COLOR_SHADE, 200] as const;

function version(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 12);
}

function icon(
  use: IconUse,
  name: string,
  bytes: Buffer,
  extra: Pick<CampusIcon, 'sizes' | 'purpose'> = {},
): CampusIcon {
  const iconPath = `${CAMPUS_ICONS_FOLDER}/${name}`;
  const type = name.endsWith('.svg') ? 'image/svg+xml' : 'image/png';
  return { use, path: iconPath, type, bytes, address: `${iconPath}?v=${version(bytes)}`, ...extra };
}

const sizesOf = (png: PngIcon) => ({
  sizes: `${png.size}x${png.size}`,
  ...(png.purpose ? { purpose: png.purpose } : {}),
});

type SharpFactory = typeof sharpModule;
// Loaded only for a campus whose icons are drawn: the default campus starts without it.
const loadSharp = async (): Promise<SharpFactory> => (await import('sharp')).default;

async function toPng(image: Sharp): Promise<Buffer> {
  return image.png({ compressionLevel: 9, palette: true }).toBuffer();
}

/** The logo drawn into a square of `size`, its longer side `share` of it, centred. */
async function drawLogo(
  sharp: SharpFactory,
  logo: CampusLogo,
  size: number,
  share: number,
  background: string | null,
): Promise<Buffer> {
  const inner = Math.round(size * share);
  const { width = inner, height = inner } = await sharp(logo.bytes).metadata();
  // An SVG is drawn at the density that makes its longer side `inner` pixels, never scaled up blurred.
  const density = Math.min(2400, Math.max(1, (72 * inner) / Math.max(width, height)));
  const fitted = await sharp(logo.bytes, logo.type === 'image/svg+xml' ? { density } : {})
    .resize(inner, inner, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  const canvas = sharp({
    create: {
      width: size,
      height: size,
      channels: 4,
      background: background ?? { r: 0, g: 0, b: 0, alpha: 0 },
    },
  }).composite([{ input: fitted, gravity: 'centre' }]);
  return toPng(canvas);
}

async function logoIcons(logo: CampusLogo): Promise<CampusIcon[]> {
  const sharp = await loadSharp();
  const icons = [icon('icon', 'favicon.png', await drawLogo(sharp, logo, FAVICON_PIXELS, 1, null))];
  for (const png of PNG_ICONS) {
    const share = !png.opaque
      ? 1
      : png.purpose === 'maskable'
        ? LOGO_SHARE.maskable
        : LOGO_SHARE['apple-touch-icon'];
    const bytes = await drawLogo(sharp, logo, png.size, share, png.opaque ? LOGO_BACKGROUND : null);
    icons.push(icon(png.use, png.name, bytes, sizesOf(png)));
  }
  return icons;
}

/** The build's favicon (the book) with the campus's shades in place of the default campus's. */
function recolour(artwork: string, campus: CampusConfig): string {
  const standard = brandPalette(DEFAULT_PRIMARY_COLOR);
  const palette = brandPalette(campus.theme.primaryColor);
  return ARTWORK_SHADES.reduce(
    (svg, shade) => svg.replaceAll(new RegExp(standard[shade], 'gi'), palette[shade]),
    artwork,
  );
}

/** An opaque square of the artwork's own square colour, its drawing inside the maskable circle. */
function opaqueArtwork(favicon: string, campus: CampusConfig): string {
  const square = brandPalette(campus.theme.primaryColor)[THEME_COLOR_SHADE];
  const drawing = [...favicon.matchAll(/<path [^>]*\/>/g)].map((m) => m[0]).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${square}"/><g transform="translate(3.2 3.2) scale(0.8)">${drawing}</g></svg>`;
}

async function artworkIcons(
  artwork: string,
  campus: CampusConfig,
  distDir: string,
  warn: (message: string) => void,
): Promise<CampusIcon[]> {
  const favicon = recolour(artwork, campus);
  const icons = [icon('icon', 'favicon.svg', Buffer.from(favicon))];
  const built = (png: PngIcon) => path.join(distDir, 'icons', png.name);
  if (campus.theme.primaryColor === DEFAULT_PRIMARY_COLOR) {
    // The default campus's icons are the build's own files (packages/web/scripts/make-icons.mjs).
    for (const png of PNG_ICONS.filter((p) => existsSync(built(p))))
      icons.push(icon(png.use, png.name, readFileSync(built(png)), sizesOf(png)));
    return icons;
  }
  try {
    const sharp = await loadSharp();
    for (const png of PNG_ICONS) {
      const svg = png.opaque ? opaqueArtwork(favicon, campus) : favicon;
      const bytes = await toPng(
        sharp(Buffer.from(svg), { density: (72 * png.size) / 32 }).resize(png.size, png.size),
      );
      icons.push(icon(png.use, png.name, bytes, sizesOf(png)));
    }
  } catch (error) {
    // The build's artwork, not the operator's file: the app keeps the build's icons, and says so.
    warn(
      `The build's favicon.svg cannot be drawn (${(error as Error).message}): the installed app keeps the build's icons`,
    );
    return icons.slice(0, 1);
  }
  return icons;
}

/**
 * The campus's icons: from its logo, or from the build's favicon.svg in its colours (the default
 * campus's: the build's own files, so it starts without sharp); none when there is neither (a build without icons keeps its head and manifest as written). A logo that
 * cannot be drawn stops the start like any other problem of the campus file.
 */
export async function campusIcons(options: {
  campus: CampusConfig;
  logo: CampusLogo | null;
  campusFile: string;
  distDir: string;
  warn: (message: string) => void;
}): Promise<CampusIcon[]> {
  const { campus, logo, campusFile, distDir, warn } = options;
  if (logo) {
    try {
      return await logoIcons(logo);
    } catch (error) {
      throw new CampusConfigError(campusFile, [
        `theme.logo: ${logo.file} cannot be drawn as an image (${(error as Error).message})`,
      ]);
    }
  }
  const artworkFile = path.join(distDir, 'favicon.svg');
  if (!existsSync(artworkFile)) return [];
  return artworkIcons(readFileSync(artworkFile, 'utf8'), campus, distDir, warn);
}

/** The page head's links to the favicon and the apple-touch-icon, in place of the build's. */
export function withIconLinks(html: string, icons: readonly CampusIcon[]): string {
  let head = html;
  for (const use of ['icon', 'apple-touch-icon'] as const) {
    const found = icons.find((i) => i.use === use);
    if (!found) continue;
    const type = use === 'icon' ? ` type="${found.type}"` : '';
    const link = `<link rel="${use}" href="${found.address}"${type} />`;
    const pattern = new RegExp(`<link\\s+rel="${use}"[^>]*>`, 'i');
    head = pattern.test(head)
      ? head.replace(pattern, () => link)
      : head.replace(/<\/head>/i, () => `${link}</head>`);
  }
  return head;
}

/** The manifest's `icons`, when the campus has its own. */
export function manifestIcons(icons: readonly CampusIcon[]) {
  return icons
    .filter((i) => i.use === 'manifest')
    .map(({ address, sizes, type, purpose }) => ({ src: address, sizes, type, purpose }));
}

/**
 * GET /campus-icons/<name> (and the logo): the address the head and the manifest link, with its
 * version, is kept forever; any other version is answered the current bytes, checked on every use.
 */
export function registerCampusIcons(
  app: FastifyInstance,
  icons: readonly CampusIcon[],
  logo: CampusLogo | null,
) {
  const served = new Map<string, { bytes: Buffer; type: string; version: string }>();
  for (const i of icons)
    served.set(i.path, { bytes: i.bytes, type: i.type, version: version(i.bytes) });
  if (logo) {
    const [logoPath, logoVersion] = logo.address.split('?v=') as [string, string];
    served.set(logoPath, { bytes: logo.bytes, type: logo.type, version: logoVersion });
  }
  for (const [iconPath, { bytes, type, version: current }] of served) {
    registerVersionedFile(app, iconPath, { body: bytes, type, version: current });
  }
}

/**
 * Several campuses (decision 024): GET /campus-icons/<name> answers the icons of the request's
 * campus (`iconsOf`), at every address any campus's icons can have; one its campus has not is not
 * found. The addresses' rule is registerCampusIcons's.
 */
export function registerIconsPerCampus(app: FastifyInstance, iconsOf: () => readonly CampusIcon[]) {
  const names = ['favicon.svg', 'favicon.png', ...PNG_ICONS.map((png) => png.name)];
  for (const name of names) {
    const iconPath = `${CAMPUS_ICONS_FOLDER}/${name}`;
    registerVersionedFile(app, iconPath, () => {
      const found = iconsOf().find((i) => i.path === iconPath);
      return found && { body: found.bytes, type: found.type, version: version(found.bytes) };
    });
  }
}

/**
 * The icons of every campus the web plugin serves: the process's campus's, drawn at start, and on
 * several campuses (decision 024, `perCampus`) each campus's, drawn before its first page, shell,
 * manifest or icon is answered (an onRequest hook), in its colours (a campus of the directory has
 * no logo of its own yet). `iconsOf` answers a campus's, the process's until its own are drawn.
 */
export async function iconsByCampus(
  app: FastifyInstance,
  distDir: string,
  perCampus: boolean,
): Promise<{ icons: CampusIcon[]; iconsOf: (of: CampusConfig) => CampusIcon[] }> {
  const draw = (of: CampusConfig) =>
    campusIcons({
      campus: of,
      logo: app.config.campusLogo,
      campusFile: app.config.campusFile,
      distDir,
      warn: (message) => app.log.warn(message),
    });
  // Outside any request: the process's campus (a single-campus installation's only one).
  const campus = app.config.campus;
  const icons = await draw(campus);
  const drawn = new WeakMap<CampusConfig, CampusIcon[]>([[campus, icons]]);
  const drawing = new WeakMap<CampusConfig, Promise<CampusIcon[]>>();
  if (perCampus) {
    // A callback, not an async function: it runs on every request (docs/performance.md, "Hooks").
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.url.startsWith('/api/')) return done();
      const current = app.config.campus;
      if (drawn.has(current)) return done();
      let pending = drawing.get(current);
      if (!pending) {
        pending = draw(current);
        drawing.set(current, pending);
      }
      pending.then((icons) => {
        drawn.set(current, icons);
        done();
      }, done);
    });
  }
  return { icons, iconsOf: (of) => drawn.get(of) ?? icons };
}
