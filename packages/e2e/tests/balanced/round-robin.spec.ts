import type { Browser, Page, Response } from '@playwright/test';
import { UNAVAILABLE_VARIABLE } from '../../src/balanced-database';
import { openEventStreams, recordEventStreams } from '../../src/event-streams';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { messagesLog } from '../../src/two-browsers';
import { createListing, type TestUser } from '../../src/users';

// playwright.balanced.config.ts: two app servers behind HAProxy (ops/haproxy/campus-books.cfg),
// which names the server of every answer in X-Served-By.
const unavailable = process.env[UNAVAILABLE_VARIABLE];
test.skip(Boolean(unavailable), `SKIPPED, the balanced run cannot happen here: ${unavailable}`);

const SERVERS = ['app1', 'app2'];
const servedBy = (response: Response) => response.headers()['x-served-by'] ?? '?';
const isEventStream = (response: Response) =>
  new URL(response.url()).pathname === '/api/conversations/events';

test('consecutive requests of one browser are answered by the two app servers in turn', async ({
  page,
}) => {
  // A page that runs none of the app's code (no service worker, no background requests), so
  // the browser sends nothing but the requests below while they run.
  await page.goto('/api/health');
  const sent: string[] = [];
  page.context().on('request', (request) => sent.push(new URL(request.url()).pathname));
  const servers = await page.evaluate(async () => {
    const answered: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await fetch('/api/health', { cache: 'no-store' });
      answered.push(response.headers.get('x-served-by') ?? '?');
    }
    return answered;
  });
  test.info().annotations.push({ type: 'served by', description: servers.join(' ') });
  console.log(
    `[balanced] 10 consecutive requests of one browser were served by: ${servers.join(' ')}`,
  );
  expect(sent).toEqual(Array.from({ length: 10 }, () => '/api/health'));
  expect([...new Set(servers)].sort()).toEqual(SERVERS);
  // In turn: Chromium asks for the page's /favicon.ico on its own, out of the test's sight (no
  // request event), and that request can take one turn of the balancer while the loop runs. So
  // one repeat is the balancer's turn given to it; two or more would be a balancer out of turn.
  const repeats = servers.filter((server, i) => i > 0 && server === servers[i - 1]).length;
  expect(repeats, `served by ${servers.join(' ')}`).toBeLessThanOrEqual(1);
});

/** A signed-in browser on a conversation's thread, with the server its event stream is held by. */
async function openThread(browser: Browser, user: TestUser, width: 375 | 1280, path: string) {
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    isMobile: width === 375,
    hasTouch: width === 375,
  });
  const page = await context.newPage();
  await recordEventStreams(page);
  const stream = page.waitForResponse(isEventStream);
  await signInBrowser(page, user, path);
  return { page, server: servedBy(await stream) };
}

/** Reloads the page until its event stream is held by another server than `other`'s. */
async function streamAwayFrom(page: Page, server: string, other: string): Promise<string> {
  for (let tries = 0; server === other && tries < 8; tries += 1) {
    const stream = page.waitForResponse(isEventStream);
    await page.reload();
    server = servedBy(await stream);
  }
  return server;
}

test('messages and the Seen mark reach a stream held by the other app server, live, both ways', async ({
  browser,
  makeUser,
}) => {
  test.slow();
  const seller = await makeUser('rrseller');
  const buyer = await makeUser('rrbuyer');
  const listing = await createListing(seller, { name: 'balanced physics', courseNumber: '131' });
  const { conversationId } = await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: 'Is it still available?' },
  });
  const thread = `/messages/${conversationId}`;
  const phone = await openThread(browser, buyer, 375, thread);
  const laptop = await openThread(browser, seller, 1280, thread);
  laptop.server = await streamAwayFrom(laptop.page, laptop.server, phone.server);
  console.log(
    `[balanced] the buyer's stream is held by ${phone.server}, the seller's by ${laptop.server}`,
  );
  expect(SERVERS).toContain(phone.server);
  expect(SERVERS).toContain(laptop.server);
  expect(laptop.server).not.toBe(phone.server);
  // Anything that opened another stream (a reconnection) would fail the count or the server below.
  const reopened: string[] = [];
  for (const { page } of [phone, laptop]) {
    page.on('response', (response) => {
      if (isEventStream(response)) reopened.push(servedBy(response));
    });
  }
  const log = messagesLog;
  await expect(log(laptop.page).getByText('Is it still available?')).toBeVisible();

  await test.step("the seller's reply appears on the buyer's phone without a reload", async () => {
    await laptop.page.getByLabel('Message', { exact: true }).fill('Yes, at the library?');
    await laptop.page.getByRole('button', { name: 'Send' }).click();
    await expect(log(phone.page).getByText('Yes, at the library?')).toBeVisible();
  });

  await test.step('the buyer answers: the seller sees it live, and the buyer sees "Seen" live', async () => {
    await phone.page.getByLabel('Message', { exact: true }).fill('Library works.');
    await phone.page.getByRole('button', { name: 'Send' }).click();
    await expect(log(laptop.page).getByText('Library works.')).toBeVisible();
    await expect(log(phone.page).getByText('Seen', { exact: true })).toBeVisible();
  });

  expect(reopened).toEqual([]);
  await expect.poll(() => openEventStreams(phone.page)).toBe(1);
  await expect.poll(() => openEventStreams(laptop.page)).toBe(1);
  await phone.page.context().close();
  await laptop.page.context().close();
});
