/**
 * Re-renders a saved run (bench/results/<timestamp>.json) with the current budget checks and report:
 *   node --import tsx bench/render.ts bench/results/2026-…json [--update-docs]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkBudgets } from './lib/budgets';
import { renderResults, updateDocs } from './lib/report';
import type { BenchResult } from './lib/results';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'update-docs': { type: 'boolean', default: false } },
});
if (!positionals[0]) throw new Error('Give a results file');
// JSON wrote NaN (no answer, not measured) as null: read it back as NaN for these numbers.
const NUMBERS = new Set([
  'p50',
  'p99',
  'serverCpuMsPerRequest',
  'serverCpuMsPerSignIn',
  'serverCpuMsPerQuietSignIn',
  'seconds',
  'ratioToHealth',
  'lcpMs',
  'tbtMs',
  'cls',
]);
const result = JSON.parse(readFileSync(positionals[0], 'utf8'), (key, value: unknown) =>
  value === null && NUMBERS.has(key) ? NaN : value,
) as BenchResult;
result.budgets = checkBudgets(result);
const markdown = renderResults(result);
console.log(markdown);
if (values['update-docs'])
  console.log(
    (await updateDocs(markdown)) ? '\ndocs/performance.md updated' : '\nno results markers',
  );
