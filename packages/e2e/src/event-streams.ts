import type { Page } from '@playwright/test';

/**
 * Records every EventSource the page opens (an init script runs before the app), so a test can
 * count the live event streams: those not closed (connecting or open).
 */
export async function recordEventStreams(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const opened: EventSource[] = [];
    const Native = window.EventSource;
    class RecordedEventSource extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        opened.push(this);
      }
    }
    Object.defineProperty(window, 'eventStreams', { value: opened });
    window.EventSource = RecordedEventSource;
  });
}

/** How many event streams the page holds open now. */
export function openEventStreams(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { eventStreams: EventSource[] }).eventStreams.filter(
        (stream) => stream.readyState !== EventSource.CLOSED,
      ).length,
  );
}
