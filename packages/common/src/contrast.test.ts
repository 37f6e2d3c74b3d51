import { describe, expect, it } from 'vitest';
import { contrastProblem, contrastRatio, nearestPassingColour } from './contrast';

describe('the contrast of a campus colour (WCAG 2)', () => {
  it('measures the ratios WCAG gives for known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // WebAIM's checker: #767676 on white is 4.54:1, the lightest grey that passes AA.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('passes a colour white text reads on, and refuses one it does not with its ratio and the nearest that passes', () => {
    expect(contrastProblem('#2458c6')).toBeNull();
    const problem = contrastProblem('#ffcc00');
    expect(problem).toMatch(/white text on #ffcc00 has a contrast of 1\.\d\d:1/);
    expect(problem).toContain('4.5:1');
    const nearest = nearestPassingColour('#ffcc00');
    expect(problem).toContain(nearest);
    expect(contrastRatio(nearest, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // The nearest: one step lighter would fail.
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(nearest.slice(i, i + 2), 16));
    const lighter = `#${[r, g, b]
      .map((c) =>
        Math.min(255, c! + 4)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    expect(contrastRatio(lighter, '#ffffff')).toBeLessThan(4.6);
  });
});
