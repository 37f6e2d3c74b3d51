import { describe, expect, it } from 'vitest';
import { isScenarioSelected } from './scenarios';

describe('which scenarios a run measures', () => {
  it('measures every one without --scenarios, else those named, and health always', () => {
    expect(isScenarioSelected({ scenarios: null }, 'search-default')).toBe(true);
    expect(isScenarioSelected({ scenarios: ['rush'] }, 'search-default')).toBe(false);
    expect(isScenarioSelected({ scenarios: ['rush'] }, 'rush')).toBe(true);
    expect(isScenarioSelected({ scenarios: ['rush'] }, 'health')).toBe(true);
  });
});
