import type { Page } from '@playwright/test';

/**
 * Watches a page for Content-Security-Policy violations from its first script on (an init script
 * runs before the app): the returned function lists every one the page saw, Chromium logged or the
 * app reported to the server. Call it before the page is opened.
 */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, '__cspViolations', { value: seen });
    window.addEventListener(
      'securitypolicyviolation',
      (e) =>
        seen.push(
          `${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
        ),
      true,
    );
  });
  const logged: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) logged.push(message.text());
  });
  page.on('request', (request) => {
    if (request.url().includes('/api/csp-report'))
      logged.push(`report sent: ${request.postData()}`);
  });
  return async () => {
    const inPage = await page.evaluate(
      () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [],
    );
    return [...inPage, ...logged];
  };
}
