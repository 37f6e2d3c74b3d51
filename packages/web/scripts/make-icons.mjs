// Draws the installed app's icons (public/icons/*.png) from the favicon's artwork. The PNGs are
// committed; run again only when favicon.svg changes: node packages/web/scripts/make-icons.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');
const favicon = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
const BRAND = '#1c46a3';

// A maskable icon is cropped to any shape by the launcher: a full-bleed square, the book inside
// the centre circle of 80 % that every shape keeps.
const pages = [...favicon.matchAll(/<path [^>]*\/>/g)].map((m) => m[0]).join('');
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(3.2 3.2) scale(0.8)">${pages}</g></svg>`;

const icons = [
  { file: 'icon-192.png', svg: favicon, size: 192 },
  { file: 'icon-512.png', svg: favicon, size: 512 },
  { file: 'icon-maskable-512.png', svg: maskable, size: 512 },
  // iOS ignores the manifest's icons and lays its own mask over an opaque square.
  { file: 'apple-touch-icon-180.png', svg: maskable, size: 180 },
];

for (const { file, svg, size } of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(publicDir, 'icons', file));
  console.log(`public/icons/${file}`);
}
