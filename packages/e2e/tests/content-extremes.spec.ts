import type { Locator, Page } from '@playwright/test';
import { overflowAtEveryWidth } from '../src/extreme-text';
import { expect, signInBrowser } from '../src/fixtures';
import { makeModerator } from '../src/moderator';
import { settle } from '../src/page-check';
import { routePageTest } from '../src/route-page-test';
import type { RoutePageData } from '../src/route-pages';
import { deleteUser, type TestUser } from '../src/users';

/**
 * The signed-in pages the route table leaves out that show what students typed, with the route
 * table's data (route-page-test.ts: text at its extremes in every field): each must wrap it at 320,
 * 375 and 1280 px, at the browser's text size and at 200 % (extreme-text.ts). The route table's own
 * pages get the same check on their laptop opening in pages.spec.ts. Laptop only
 * (playwright.config.ts): the widths are set here.
 */
interface ExtremeData extends RoutePageData {
  moderator: TestUser;
}

const test = routePageTest.extend<object, { moderator: TestUser }>({
  moderator: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const moderator = await makeModerator();
      await use(moderator);
      await deleteUser(moderator);
    },
    { scope: 'worker' },
  ],
});

interface ExtremePage {
  name: string;
  open(page: Page, data: ExtremeData): Promise<void>;
  ready(page: Page): Locator;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name });
const as =
  (who: 'seller' | 'buyer' | 'moderator', path: (d: ExtremeData) => string) =>
  (page: Page, data: ExtremeData) =>
    signInBrowser(page, data[who], path(data));

const PAGES: readonly ExtremePage[] = [
  {
    name: 'inbox-buyer',
    open: as('buyer', () => '/messages'),
    ready: (p) => p.getByRole('link', { name: /introduction to/i }),
  },
  {
    name: 'inbox-of-a-listing',
    open: as('seller', (d) => `/messages?listingId=${d.listing._id}`),
    ready: (p) => p.getByRole('link', { name: /Buyer/ }),
  },
  {
    name: 'conversation-seller',
    open: as('seller', (d) => `/messages/${d.conversationId}`),
    ready: (p) => p.getByRole('log', { name: 'Messages' }).getByText(/Is this still available/),
  },
  { name: 'alerts', open: as('seller', () => '/profile/alerts'), ready: heading('Your alerts') },
  { name: 'saved', open: as('buyer', () => '/saved'), ready: heading('Saved listings') },
  {
    name: 'my-courses-signed-in',
    open: as('buyer', () => '/my-courses'),
    ready: heading('My courses'),
  },
  { name: 'course', open: as('buyer', () => '/course/CHEM-101'), ready: heading(/CHEM 101/) },
  {
    name: 'ratings-seller',
    open: as('seller', () => '/ratings'),
    ready: heading('Rate your exchanges'),
  },
  {
    name: 'public-profile-buyer',
    open: as('seller', (d) => `/u/${d.buyer.id}`),
    ready: (p) => p.getByRole('heading', { level: 1 }),
  },
  {
    name: 'moderation',
    open: as('moderator', () => '/moderation'),
    ready: heading('Reported listings'),
  },
];

for (const pageCase of PAGES) {
  test(`${pageCase.name}: long words, long names, emoji and right-to-left text fit at 320, 375 and 1280 px, at 200 % text too`, async ({
    page,
    data,
    moderator,
  }, testInfo) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await pageCase.open(page, { ...data, moderator });
    await settle(page, pageCase.ready);
    const problems = await overflowAtEveryWidth(page, testInfo, pageCase.name);
    expect(problems, problems.join('\n')).toEqual([]);
  });
}
