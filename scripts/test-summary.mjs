// Prints one closing line 'tests: N passed, N failed' from the JSON reports of vitest and Playwright.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync('.tmp/vitest.json')) {
  const r = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
}
// The browser tests' two runs: one app server, then two behind HAProxy (packages/e2e).
for (const report of ['.tmp/playwright.json', '.tmp/playwright-balanced.json']) {
  if (!existsSync(report)) continue;
  const s = JSON.parse(readFileSync(report, 'utf8')).stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  skipped += s.skipped;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
