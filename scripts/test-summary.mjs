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
if (existsSync('.tmp/playwright.json')) {
  const s = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8')).stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  skipped += s.skipped;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
