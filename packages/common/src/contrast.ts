/**
 * WCAG 2 contrast of a campus's primary colour: white text sits on it (buttons) and it sits on the
 * white page (links, focus rings, controls), so white text on it must reach 4.5:1 (AA for text),
 * which also covers the 3:1 controls need.
 */

export const TEXT_CONTRAST_MIN = 4.5;

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: readonly number[]): string {
  return `#${[r, g, b].map((c) => Math.round(c!).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/**
 * The colour nearest to `hex` (the same hue, darkened by the smallest step) that white text reaches
 * 4.5:1 on; `hex` itself when it already does.
 */
export function nearestPassingColour(hex: string): string {
  const start = channels(hex);
  for (let step = 0; step <= 100; step += 1) {
    const candidate = toHex(start.map((c) => (c * (100 - step)) / 100));
    if (contrastRatio(candidate, '#ffffff') >= TEXT_CONTRAST_MIN) return candidate;
  }
  return '#000000';
}

/** Why a primary colour is refused (its contrast and the nearest that passes), or null when it passes. */
export function contrastProblem(hex: string): string | null {
  const ratio = contrastRatio(hex, '#ffffff');
  if (ratio >= TEXT_CONTRAST_MIN) return null;
  return (
    `white text on ${hex} has a contrast of ${(Math.floor(ratio * 100) / 100).toFixed(2)}:1; ` +
    `WCAG AA needs ${TEXT_CONTRAST_MIN}:1 for text (3:1 for controls). ` +
    `The nearest colour that passes is ${nearestPassingColour(hex)}.`
  );
}
