import { expect, test } from '@playwright/test';

/**
 * The API reference page (/api/docs) renders the generated document under its policy without a
 * violation, with no request leaving the site, and can be read with the keyboard alone.
 */
test('the API reference renders under its policy and works by keyboard', async ({ page }) => {
  // Its 3.5 MB script is parsed and run by a phone-sized page on a machine shared with another
  // browser: over a minute at times on two slow cores.
  test.setTimeout(180_000);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, '__cspViolations', { value: seen });
    window.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} ${e.sample}`),
    );
  });

  await page.goto('/api/docs');
  // A 3.5 MB script (compressed on the wire): give a loaded machine time to run it.
  await expect(page.getByRole('heading', { name: 'Campus Books API', exact: true })).toBeVisible({
    timeout: 120_000,
  });
  // An operation of the document is there, by its path.
  await expect(page.getByText('/api/listing/get/{id}').first()).toBeAttached();

  // Keyboard: Tab reaches a control of the reference, and focus is visible on it.
  let reached = false;
  for (let i = 0; i < 15 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => {
      const el = document.activeElement;
      return !!el && el !== document.body && !!el.closest('#reference');
    });
  }
  expect(reached).toBe(true);

  const inPage = await page.evaluate(
    () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
  );
  // The bundle's zod probes once whether it may compile code (`new Function('')`, caught): refused by
  // the policy, it simply runs without compiling. Any other violation fails.
  const unexpected = [...inPage, ...violations].filter(
    (v) => v !== 'script-src blocked eval ' && !/unsafe-eval|'eval'/.test(v),
  );
  expect(unexpected).toEqual([]);
  const origin = new URL(page.url()).origin;
  expect(requested.filter((url) => !/^(data|blob):/.test(url) && !url.startsWith(origin))).toEqual(
    [],
  );
});
