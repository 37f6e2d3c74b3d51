/**
 * The value at or above `p` % of `values` (nearest rank: the sorted value at ⌊p/100 × n⌋, capped at
 * the last); NaN for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
