import type { Listing } from '@campus-books/common/listing.schemas';
import type { Locator, Page } from '@playwright/test';
import { expect, signInBrowser, test as base } from '../src/fixtures';
import { makeModerator } from '../src/moderator';
import { screenshot, settle } from '../src/page-check';
import { openRoutePage, ROUTE_PAGES, type RoutePageData } from '../src/route-pages';
import { createListing, createUser, deleteUser, type TestUser } from '../src/users';

/**
 * Text a student typed, at its extremes: a word as long as a field takes, a 170-character link,
 * emoji, right-to-left scripts. Every page must wrap it at the narrowest phone, a common phone and a
 * laptop, at the browser's text size and at 200 %: nothing scrolls sideways, nothing reaches past
 * the screen's edges.
 */
const WIDTHS = [320, 375, 1280] as const;
const TEXT_SIZES = ['100%', '200%'] as const;

const word = (length: number) => 'Unbreakable'.repeat(Math.ceil(length / 11)).slice(0, length);
const LONG_URL =
  `https://drive.example.edu/notes/${'chapter-three-highlights-and-margin-notes-'.repeat(4)}`.slice(
    0,
    170,
  );
const EMOJI = '📚🎓👩🏽‍🎓🧑‍🤝‍🧑';
const RTL = 'مرحبا بالعالم שלום עולם';
/** A sentence of every kind at once, ending in a long word. */
const mixed = (length: number) => {
  const start = `${LONG_URL} ${EMOJI} ${RTL} `;
  return `${start}${word(length - start.length)}`;
};
const longName = (first: string) => `${first}${word(60)} ${EMOJI} محمد שלום`;

interface ExtremeData extends RoutePageData {
  moderator: TestUser;
}

/** Seeds everything through the API, once per worker: the same shape as the route table's data. */
const test = base.extend<object, { data: ExtremeData }>({
  data: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('xseller');
      const buyer = await createUser('xbuyer');
      const reporter = await createUser('xreporter');
      const moderator = await makeModerator();
      for (const [user, first] of [
        [seller, 'Seller'],
        [buyer, 'Buyer'],
      ] as const) {
        user.username = longName(first);
        await user.api.call('POST /api/user/update/:id', {
          params: { id: user.id },
          body: { username: user.username },
        });
      }
      const fields = {
        subject: 'CHEM',
        courseNumber: '101',
        edition: word(20),
        address: word(200),
        pickupLocation: `${EMOJI} ${RTL} ${word(150)}`,
        description: `${LONG_URL}\n${EMOJI} ${RTL}\n${word(2000 - LONG_URL.length - RTL.length - 20)}`,
      };
      // The route table's markers look for "introduction to" in the title.
      const listing: Listing = await createListing(seller, {
        ...fields,
        name: `introduction to ${word(46)}`,
      });
      const sold = await createListing(seller, { ...fields, name: word(62) });

      const start = (listingId: string, text: string) =>
        buyer.api.call('POST /api/conversations', { body: { listingId, text } });
      const { conversationId } = await start(
        listing._id,
        `Is this still available? ${LONG_URL} ${EMOJI} ${RTL}`,
      );
      const params = { id: conversationId };
      const write = 'POST /api/conversations/:id/messages';
      await buyer.api.call(write, { params, body: { text: word(2000) } });
      await seller.api.call(write, { params, body: { text: mixed(400) } });
      await buyer.api.call('POST /api/conversations/:id/offers', { params, body: { amount: 10 } });

      // A sale of the second listing, rated by both with comments: the ratings show.
      await start(sold._id, mixed(300));
      await seller.api.call('POST /api/conversations/listing/:listingId/sold', {
        params: { listingId: sold._id },
        body: { buyerId: buyer.id },
      });
      for (const user of [buyer, seller]) {
        const { exchanges } = await user.api.call('GET /api/ratings/exchanges');
        await user.api.call('POST /api/ratings/exchanges/:id', {
          params: { id: exchanges[0]!.id },
          body: { positive: true, comment: mixed(500) },
        });
      }

      const alert = 'POST /api/alerts/create';
      await seller.api.call(alert, { body: { searchTerm: word(100) } });
      await buyer.api.call(alert, { body: { searchTerm: `${EMOJI} ${RTL}` } });
      await buyer.api.call('POST /api/saved/add/:id', { params: { id: listing._id } });
      await buyer.api.call('POST /api/my-courses/add', {
        body: { text: `CHEM 101, PSYC 101 ${word(300)}` },
      });
      const report = { reason: 'spam_or_scam', note: mixed(1000) } as const;
      await reporter.api.call('POST /api/reports/:listingId', {
        params: { listingId: listing._id },
        body: report,
      });
      await buyer.api.call('POST /api/conversations/:id/report', { params, body: report });

      await use({ seller, buyer, moderator, listing, conversationId });
      for (const user of [seller, buyer, reporter, moderator]) await deleteUser(user);
    },
    { scope: 'worker' },
  ],
});

interface ExtremePage {
  name: string;
  open(page: Page, data: ExtremeData): Promise<void>;
  ready(page: Page): Locator;
  showsLoading?: boolean;
  then?(page: Page): Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name });
const as =
  (who: 'seller' | 'buyer' | 'moderator', path: (d: ExtremeData) => string) =>
  (page: Page, data: ExtremeData) =>
    signInBrowser(page, data[who], path(data));

/** The route table's pages, and the signed-in pages it leaves out that show what students typed. */
const PAGES: readonly ExtremePage[] = [
  ...ROUTE_PAGES.map((routePage) => ({
    ...routePage,
    open: (page: Page, data: ExtremeData) => openRoutePage(page, routePage, data),
  })),
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

/** After a resize or a new text size: React's media-query hooks re-render, then layout settles. */
const nextFrames = (page: Page) =>
  page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );

/**
 * What reaches past the screen: the page's own width, and each visible element whose box leaves
 * [0, innerWidth] (the innermost ones, so the message names what to fix). What a scroller or a
 * clipping box of its own holds is judged by that box.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) found.push(`the page is ${pageWidth} px wide`);
    // Inside a box that scrolls or clips and itself fits, an element is that box's business.
    const contained = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const box = up.getBoundingClientRect();
        if (box.left >= -1 && box.right <= width + 1) return true;
      }
      return false;
    };
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : '';
      const testId = element.getAttribute('data-testid');
      const classes = [...element.classList].slice(0, 6).join('.');
      const text = (element.textContent ?? '').trim().slice(0, 24);
      return `${element.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}${classes ? `.${classes}` : ''} "${text}"`;
    };
    const wide = [...document.querySelectorAll('body *')].filter((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.clipPath.startsWith('inset(50%')) return false;
      if (style.clip.startsWith('rect(0')) return false;
      return (box.left < -1 || box.right > width + 1) && !contained(element);
    });
    for (const element of wide) {
      if (wide.some((other) => other !== element && element.contains(other))) continue;
      const box = element.getBoundingClientRect();
      found.push(`${describe(element)} spans ${Math.round(box.left)}…${Math.round(box.right)}`);
    }
    return found.slice(0, 12);
  });
}

// The widths are set here: one project is enough.
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'laptop', 'every width is set by the test itself');
});

for (const pageCase of PAGES) {
  test(`${pageCase.name}: long words, long names, emoji and right-to-left text fit at 320, 375 and 1280 px, at 200 % text too`, async ({
    page,
    data,
  }, testInfo) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await pageCase.open(page, data);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    const problems: string[] = [];
    for (const textSize of TEXT_SIZES) {
      await page.evaluate((size) => {
        document.documentElement.style.fontSize = size;
      }, textSize);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await nextFrames(page);
        if (width === 320)
          await screenshot(page, testInfo, `extremes-${pageCase.name}-${textSize}`);
        for (const problem of await overflowing(page)) {
          problems.push(`${width} px, text ${textSize}: ${problem}`);
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
}
