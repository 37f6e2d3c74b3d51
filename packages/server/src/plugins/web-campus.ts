/**
 * The parts of the built web app that name the campus (docs/configuration.md): the shell's title,
 * description and theme colour, the web app manifest and the brand palette (/campus.css), made at
 * start from the campus the server serves, so a restart changes them and a build never has to (with
 * several campuses, each campus's on its first request, web.ts).
 */
import { createHash } from 'node:crypto';
import type { CampusConfig } from '@campus-books/common/campus-config';
import {
  brandPalette,
  brandPaletteCss,
  PAGE_BACKGROUND,
  THEME_COLOR_SHADE,
} from '@campus-books/common/campus-theme';
import { CAMPUS_ELEMENT_ID, scriptSafeJson } from '@campus-books/common/server-rendering';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../lib/html';
import { registerVersionedFile } from './web-assets';
import { manifestIcons, withIconLinks, type CampusIcon } from './web-icons';

export const CAMPUS_STYLESHEET_PATH = '/campus.css';
export const MANIFEST_PATH = '/manifest.webmanifest';

/** What the shell and the manifest say is bought and sold, and with whom. */
function offering(campus: CampusConfig): string {
  return `used course textbooks with students at ${campus.name}`;
}

/**
 * A short hash of the campus (and of its stylesheet, which a deploy may derive anew): the
 * stylesheet's address changes with it, so no cache keeps an old one.
 */
export function campusVersion(campus: CampusConfig): string {
  return createHash('sha256')
    .update(JSON.stringify(campus))
    .update(campusStylesheet(campus))
    .digest('base64url')
    .slice(0, 12);
}

/** The brand palette of the campus's primary colour, as /campus.css answers it. */
export function campusStylesheet(campus: CampusConfig): string {
  return brandPaletteCss(brandPalette(campus.theme.primaryColor));
}

function replaceOrAdd(html: string, pattern: RegExp, tag: string): string {
  return pattern.test(html)
    ? html.replace(pattern, () => tag)
    : html.replace(/<\/head>/i, () => `${tag}</head>`);
}

/**
 * The built shell (index.html) naming the campus: its <title> (a page React renders writes its own
 * over it), description and theme colour, and its head linking the campus's palette and icons.
 */
export function campusShell(
  html: string,
  campus: CampusConfig,
  icons: readonly CampusIcon[] = [],
): string {
  const themeColor = brandPalette(campus.theme.primaryColor)[THEME_COLOR_SHADE];
  const description = `${campus.productName}: buy and sell ${offering(campus)}.`;
  let shell = replaceOrAdd(
    html,
    /<title>[\s\S]*?<\/title>/i,
    `<title>${escapeHtml(campus.productName)}</title>`,
  );
  shell = replaceOrAdd(
    shell,
    /<meta\s+name="description"[^>]*>/i,
    `<meta name="description" content="${escapeHtml(description)}" />`,
  );
  shell = replaceOrAdd(
    shell,
    /<meta\s+name="theme-color"[^>]*>/i,
    `<meta name="theme-color" content="${themeColor}" />`,
  );
  shell = withIconLinks(shell, icons);
  const href = `${CAMPUS_STYLESHEET_PATH}?v=${campusVersion(campus)}`;
  return shell.replace(/<\/head>/i, () => `<link rel="stylesheet" href="${href}">\n</head>`);
}

/**
 * The web app manifest naming the campus: the built one's other fields, with the campus's names,
 * colour and icons (the build's when the campus has none).
 */
export function campusManifest(
  built: string,
  campus: CampusConfig,
  icons: readonly CampusIcon[] = [],
): string {
  const manifest = JSON.parse(built) as Record<string, unknown>;
  const ownIcons = manifestIcons(icons);
  return JSON.stringify({
    ...manifest,
    ...(ownIcons.length > 0 ? { icons: ownIcons } : {}),
    name: `${campus.productName} · ${campus.name}`,
    short_name: campus.productName,
    description: `Buy and sell ${offering(campus)}.`,
    theme_color: brandPalette(campus.theme.primaryColor)[THEME_COLOR_SHADE],
    background_color: PAGE_BACKGROUND,
  });
}

/**
 * The page with the campus as JSON in its head (CAMPUS_ELEMENT_ID): a data element, never run, so
 * the Content-Security-Policy has nothing to allow; '<' is escaped so no text of the campus can end it.
 */
export function withCampusElement(html: string, campus: CampusConfig): string {
  const element = `<script type="application/json" id="${CAMPUS_ELEMENT_ID}">${scriptSafeJson(campus)}</script>`;
  return html.replace(/<\/head>/i, () => `${element}</head>`);
}

/**
 * GET /campus.css, the campus's brand palette, linked with the campus's version: `of` gives the
 * palette of the request's campus (several campuses: each its own, decision 024).
 */
export function registerCampusStylesheet(
  app: FastifyInstance,
  of: () => { css: string; version: string },
) {
  registerVersionedFile(app, CAMPUS_STYLESHEET_PATH, () => {
    const { css, version } = of();
    return { body: css, type: 'text/css; charset=utf-8', version };
  });
}
