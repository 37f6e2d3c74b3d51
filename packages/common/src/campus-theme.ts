import { contrastRatio, TEXT_CONTRAST_MIN } from './contrast';

/**
 * The web app's brand palette (the `--color-brand-*` custom properties of packages/web/src/index.css)
 * derived from a campus's primary colour: the primary is the 600 shade, lighter shades are mixed
 * toward white and darker ones toward black, and the text shades are darkened further until every
 * pair of BRAND_TEXT_PAIRS reaches WCAG AA.
 */

export const BRAND_SHADES = [50, 100, 200, 300, 500, 600, 700, 800, 900] as const;
export type BrandShade = (typeof BRAND_SHADES)[number];
export type BrandPalette = Record<BrandShade, string>;

/** The default campus's primary colour, and the palette index.css has always had for it. */
export const DEFAULT_PRIMARY_COLOR = '#2458c6';
const DEFAULT_PALETTE: BrandPalette = {
  50: '#eef4ff',
  100: '#dce7fd',
  200: '#bcd1fb',
  300: '#8fb1f6',
  500: '#3b6fe0',
  600: '#2458c6',
  700: '#1c46a3',
  800: '#1b3c85',
  900: '#1a3267',
};

/** The page's background (Tailwind's slate-50, the body of index.css), not a brand colour. */
export const PAGE_BACKGROUND = '#f8fafc';
/** The shade of the header and the browser's toolbar (`theme-color`, the manifest's theme_color). */
export const THEME_COLOR_SHADE = 700 satisfies BrandShade;

type Surface = BrandShade | 'white' | 'page';

/**
 * Text and its background wherever the app puts them together (text-brand-900 on bg-brand-100,
 * white on bg-brand-700, links in brand-700 on the page…): each must reach 4.5:1.
 */
export const BRAND_TEXT_PAIRS: readonly (readonly [text: Surface, background: Surface])[] = [
  ['white', 600],
  ['white', 700],
  ['white', 800],
  [700, 'white'],
  [700, 'page'],
  [700, 50],
  [800, 'white'],
  [800, 'page'],
  [800, 50],
  [800, 100],
  [900, 'white'],
  [900, 'page'],
  [900, 50],
  [900, 100],
];

/** How much of the primary each lighter shade keeps (the rest white), each darker one (the rest black). */
const TINTS: Partial<Record<BrandShade, number>> = {
  50: 0.07,
  100: 0.15,
  200: 0.28,
  300: 0.48,
  500: 0.8,
};
const SHADES: Partial<Record<BrandShade, number>> = { 700: 0.8, 800: 0.68, 900: 0.55 };

function channels(hex: string): number[] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: number[]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** `hex` with `kept` of itself and the rest of `toward` (0–255 per channel). */
function mix(hex: string, kept: number, toward: number): string {
  return toHex(channels(hex).map((c) => c * kept + toward * (1 - kept)));
}

export function colourOf(palette: BrandPalette, surface: Surface): string {
  if (surface === 'white') return '#ffffff';
  if (surface === 'page') return PAGE_BACKGROUND;
  return palette[surface];
}

/** The palette of a primary colour (#rrggbb, one the campus schema accepts: white text on it passes AA). */
export function brandPalette(primaryColor: string): BrandPalette {
  const primary = primaryColor.toLowerCase();
  if (primary === DEFAULT_PRIMARY_COLOR) return { ...DEFAULT_PALETTE };
  const palette = { 600: primary } as BrandPalette;
  for (const [shade, kept] of Object.entries(TINTS))
    palette[Number(shade) as BrandShade] = mix(primary, kept, 255);
  for (const [shade, kept] of Object.entries(SHADES))
    palette[Number(shade) as BrandShade] = mix(primary, kept, 0);
  // A light hue's tints can sit close to its dark shades: those text shades darken until they pass.
  for (const [text, background] of BRAND_TEXT_PAIRS) {
    if (typeof text !== 'number') continue;
    while (contrastRatio(palette[text], colourOf(palette, background)) < TEXT_CONTRAST_MIN) {
      palette[text] = mix(palette[text], 0.95, 0);
    }
  }
  return palette;
}

/** The stylesheet that sets the palette (served as /campus.css; unlayered, so it wins over index.css's). */
export function brandPaletteCss(palette: BrandPalette): string {
  const properties = BRAND_SHADES.map((shade) => `--color-brand-${shade}:${palette[shade]};`);
  return `:root{${properties.join('')}}\n`;
}
