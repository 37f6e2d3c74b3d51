import { describe, expect, it } from 'vitest';
import {
  BRAND_SHADES,
  BRAND_TEXT_PAIRS,
  brandPalette,
  brandPaletteCss,
  colourOf,
  DEFAULT_PRIMARY_COLOR,
} from './campus-theme';
import { contrastProblem, contrastRatio, luminance } from './contrast';

/** Primary colours a campus may choose (white text on each passes AA), light and dark, every hue. */
function samplePrimaries(): string[] {
  const colours: string[] = [];
  for (let r = 0; r < 256; r += 51)
    for (let g = 0; g < 256; g += 51)
      for (let b = 0; b < 256; b += 51) {
        const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
        if (contrastProblem(hex) === null) colours.push(hex);
      }
  return [...colours, DEFAULT_PRIMARY_COLOR, '#0f6e62', '#767676', '#b00020', '#5b2a86'];
}

describe('brandPalette', () => {
  // server/src/plugins/web-campus.test.ts checks these are index.css's own values.
  it("is the web app's built palette for the default campus's colour, so nothing changes for it", () => {
    expect(brandPalette(DEFAULT_PRIMARY_COLOR)).toEqual({
      50: '#eef4ff',
      100: '#dce7fd',
      200: '#bcd1fb',
      300: '#8fb1f6',
      500: '#3b6fe0',
      600: '#2458c6',
      700: '#1c46a3',
      800: '#1b3c85',
      900: '#1a3267',
    });
  });

  it('keeps the primary as the 600 shade, lighter shades above it and darker below', () => {
    const palette = brandPalette('#0F6E62');
    expect(palette[600]).toBe('#0f6e62');
    const lightness = BRAND_SHADES.map((shade) => luminance(palette[shade]));
    expect(lightness).toEqual([...lightness].sort((a, b) => b - a));
  });

  it('reaches WCAG AA for every text and background pair the app uses, whatever the colour', () => {
    const primaries = samplePrimaries();
    expect(primaries.length).toBeGreaterThan(50);
    for (const primary of primaries) {
      const palette = brandPalette(primary);
      for (const [text, background] of BRAND_TEXT_PAIRS) {
        const ratio = contrastRatio(colourOf(palette, text), colourOf(palette, background));
        expect(ratio, `${primary}: ${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('writes every shade as a custom property of :root', () => {
    const css = brandPaletteCss(brandPalette('#0f6e62'));
    expect(css).toMatch(/^:root\{/);
    for (const shade of BRAND_SHADES)
      expect(css).toMatch(new RegExp(`--color-brand-${shade}:#[0-9a-f]{6};`));
    expect(css).toContain('--color-brand-600:#0f6e62;');
  });
});
