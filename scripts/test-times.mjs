// Where the test run's time goes: one table per suite, the slowest files first, from the JSON
// reports the runs write in CI (.tmp/vitest.json, .tmp/playwright.json, .tmp/playwright-balanced.json).
// `node scripts/test-times.mjs [--top N]`; N defaults to 20, 0 prints every file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const topArg = process.argv.indexOf('--top');
const top = topArg > 0 ? Number(process.argv[topArg + 1]) : 20;
const root = process.cwd();

/** Prints `rows` ([file, seconds, tests]) as a table, the slowest first, with the suite's total. */
function table(title, rows, wall) {
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, s]) => sum + s, 0);
  const tests = rows.reduce((sum, [, , n]) => sum + n, 0);
  const wallText = wall === undefined ? '' : `, ${wall.toFixed(0)} s from first start to last end`;
  console.log(
    `\n${title}: ${rows.length} files, ${tests} tests, ${total.toFixed(0)} s of file time${wallText}`,
  );
  console.log('| seconds | share | tests | file |\n|---:|---:|---:|---|');
  for (const [file, seconds, n] of top > 0 ? rows.slice(0, top) : rows) {
    const share = total > 0 ? ((100 * seconds) / total).toFixed(1) : '0.0';
    console.log(`| ${seconds.toFixed(1)} | ${share} % | ${n} | ${file} |`);
  }
}

if (existsSync('.tmp/vitest.json')) {
  const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
  // A file's project is not in the report: the same file on two engines appears twice, one per run.
  const rows = report.testResults.map((file) => [
    path.relative(root, file.name),
    (file.endTime - file.startTime) / 1000,
    file.assertionResults.length,
  ]);
  const starts = report.testResults.map((f) => f.startTime);
  const ends = report.testResults.map((f) => f.endTime);
  const wall = rows.length ? (Math.max(...ends) - Math.min(...starts)) / 1000 : 0;
  table('Unit and API tests (vitest, every project)', rows, wall);
}

// The browser tests' two runs: one app server, then two behind HAProxy (packages/e2e).
for (const [file, layout] of [
  ['.tmp/playwright.json', 'one app server'],
  ['.tmp/playwright-balanced.json', 'two app servers behind HAProxy'],
]) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const perFile = new Map();
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) {
          const key = `${here} [${test.projectName}]`;
          const row = perFile.get(key) ?? [key, 0, 0];
          row[1] += result.duration / 1000;
          row[2] += test.status === 'skipped' ? 0 : 1;
          perFile.set(key, row);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites) walk(suite, suite.file);
  table(
    `Browser tests (Playwright, ${layout}, per file and project)`,
    [...perFile.values()],
    report.stats.duration / 1000,
  );
}
