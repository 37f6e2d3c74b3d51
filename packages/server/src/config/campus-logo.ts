import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { CampusConfigError } from './campus-file';

/**
 * The campus's logo (theme.logo of the campus file): read and checked once at start, like the rest
 * of the file. The server sends the campus with the logo's address in its place
 * (`campusWithLogoAddress`), serves the file there, and draws the favicon and the installed app's
 * icons from it (plugins/web-icons.ts). What the icons' renderer alone can tell (an SVG that does
 * not draw) is checked there, at start too.
 */
export interface CampusLogo {
  /** The file, resolved against the campus file's folder. */
  file: string;
  bytes: Buffer;
  type: 'image/svg+xml' | 'image/png';
  /** Where the server answers it: a new file is a new address, so no cache keeps an old one. */
  address: string;
}

export const CAMPUS_LOGO_MAX_BYTES = 1024 * 1024;
/** A PNG logo is drawn up to 512 pixels (the app's icon): smaller ones blur, larger ones waste. */
export const CAMPUS_LOGO_MIN_PIXELS = 192;
export const CAMPUS_LOGO_MAX_PIXELS = 4096;
export const CAMPUS_LOGO_PATH = '/campus-icons/logo';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * What an SVG logo may not hold: it is served from this origin, so nothing in it may run or fetch
 * (a browser opening it directly would run a script; an <img> would not, but the address is public).
 */
const SVG_DANGERS: readonly [RegExp, string][] = [
  [/<script[\s>/]/i, 'a <script> element'],
  [/\son[a-z]+\s*=/i, 'an event handler attribute (onload=…)'],
  [/javascript:/i, 'a javascript: address'],
  [/<foreignObject[\s>/]/i, 'a <foreignObject> element'],
  [
    /[\s:]href\s*=\s*["']\s*(?!#|data:image\/)/i,
    'a link to another file (only #fragments and data:image/ are drawn)',
  ],
  [/url\(\s*["']?\s*(?!#|data:image\/)|@import/i, 'a style that loads another file'],
];

function pngProblem(bytes: Buffer): string | null {
  // The IHDR chunk comes first: its width and height are bytes 16 to 23.
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return 'is not a PNG image';
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width > CAMPUS_LOGO_MAX_PIXELS || height > CAMPUS_LOGO_MAX_PIXELS)
    return `is ${width}×${height} pixels: at most ${CAMPUS_LOGO_MAX_PIXELS} on each side`;
  if (Math.max(width, height) < CAMPUS_LOGO_MIN_PIXELS)
    return `is ${width}×${height} pixels: at least ${CAMPUS_LOGO_MIN_PIXELS} wide or high (the app's icon is 512), or an SVG`;
  return null;
}

function svgProblem(bytes: Buffer): string | null {
  const text = bytes.toString('utf8');
  if (!/<svg[\s>]/i.test(text)) return 'is neither a PNG nor an SVG image';
  const danger = SVG_DANGERS.find(([pattern]) => pattern.test(text));
  return danger ? `is an SVG with ${danger[1]}: remove it` : null;
}

/**
 * The campus's logo, checked: readable, at most 1 MB, a PNG of sensible size or an SVG that runs
 * and fetches nothing. Null without one; a CampusConfigError naming the problem otherwise.
 */
export function readCampusLogo(campus: CampusConfig, campusFile: string): CampusLogo | null {
  const named = campus.theme.logo;
  if (named === undefined) return null;
  const file = path.resolve(path.dirname(campusFile), named);
  const refuse = (problem: string) =>
    new CampusConfigError(campusFile, [`theme.logo: ${named} (${file}) ${problem}`]);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a folder'
          : `cannot be read (${code ?? String(error)})`,
    );
  }
  if (bytes.length > CAMPUS_LOGO_MAX_BYTES)
    throw refuse(`is ${Math.ceil(bytes.length / 1024)} KB: at most 1 MB`);
  const isPng = bytes.subarray(0, 8).equals(PNG_SIGNATURE);
  const problem = isPng ? pngProblem(bytes) : svgProblem(bytes);
  if (problem) throw refuse(problem);
  const version = createHash('sha256').update(bytes).digest('base64url').slice(0, 12);
  const extension = isPng ? 'png' : 'svg';
  return {
    file,
    bytes,
    type: isPng ? 'image/png' : 'image/svg+xml',
    address: `${CAMPUS_LOGO_PATH}.${extension}?v=${version}`,
  };
}

/** The campus as the server sends it: the logo's address in place of its file's path. */
export function campusWithLogoAddress(campus: CampusConfig, logo: CampusLogo | null): CampusConfig {
  if (!logo) return campus;
  return { ...campus, theme: { ...campus.theme, logo: logo.address } };
}
