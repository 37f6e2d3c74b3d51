import type { Listing } from '@campus-books/common/listing.schemas';
import type { Locator, Page } from '@playwright/test';
import { expect, signInBrowser, test as base } from '../src/fixtures';
import { expectNoAxeViolations, screenshot, settle, smallTapTargets } from '../src/page-check';
import { bookCover } from '../src/images';
import { createListing, createUser, deleteUser, type TestUser } from '../src/users';

interface PageData {
  seller: TestUser;
  buyer: TestUser;
  listing: Listing;
}

/** One seller with a listing and one buyer for every page of this file (per project). */
const test = base.extend<object, { data: PageData }>({
  data: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('pageseller');
      const buyer = await createUser('pagebuyer');
      const listing = await createListing(seller, {
        name: 'introduction to psychology',
        courseNumber: '101',
        condition: 'excellent',
        regularPrice: 1234.5,
        description: 'Ninth edition.\nSome highlighting in chapter 3.',
      });
      // Six photos, the most a listing holds: their thumbnails once made a phone page 440 px wide.
      const more = await Promise.all(
        [1, 2, 3, 4, 5].map(async (n) => seller.api.uploadImage(await bookCover(n * 60))),
      );
      const sixPhotos = await seller.api.post<Listing>(`/api/listing/update/${listing._id}`, {
        ...listing,
        imageUrls: [...listing.imageUrls, ...more],
      });
      expect(sixPhotos.imageUrls).toHaveLength(6);
      await use({ seller, buyer, listing: sixPhotos });
      await deleteUser(seller);
      await deleteUser(buyer);
    },
    { scope: 'worker' },
  ],
});

type Viewer = 'visitor' | 'seller' | 'buyer';
interface PageCase {
  name: string;
  as: Viewer;
  path(data: PageData): string;
  ready(page: Page): Locator;
  /** The style guide shows the 'Loading...' state on purpose. */
  showsLoading?: boolean;
  /** Something to do once the page has settled (open a list, a dialog). */
  then?(page: Page): Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name });

/** Every page of the route table (spec section 2), signed out and signed in. */
const PAGES: PageCase[] = [
  { name: 'home', as: 'visitor', path: () => '/', ready: (p) => p.getByText('Recent Additions') },
  { name: 'sign-in', as: 'visitor', path: () => '/sign-in', ready: heading('Sign In') },
  { name: 'sign-up', as: 'visitor', path: () => '/sign-up', ready: heading(/Welcome to/) },
  { name: 'about', as: 'visitor', path: () => '/about', ready: heading(/About/) },
  {
    name: 'search',
    as: 'visitor',
    path: () => '/search',
    ready: (p) => p.getByRole('region', { name: 'Listing results' }).getByRole('listitem'),
  },
  {
    name: 'search-empty',
    as: 'visitor',
    path: () => '/search?searchTerm=qqqqqqqqqqq',
    ready: (p) => p.getByText('No listing found!'),
  },
  {
    name: 'listing',
    as: 'visitor',
    path: (d) => `/listing/${d.listing._id}`,
    ready: (p) => p.getByRole('link', { name: 'Sign In to Contact Seller' }),
  },
  {
    name: 'contact-seller-signed-out',
    as: 'visitor',
    path: (d) => `/contact-seller/${d.seller.id}`,
    ready: (p) => p.getByRole('link', { name: 'Sign in to continue' }),
  },
  {
    name: 'groupme-instructions',
    as: 'visitor',
    path: () => '/groupme-instructions',
    ready: heading(/GroupMe/i),
  },
  {
    name: 'forgot-password',
    as: 'visitor',
    path: () => '/forgot-password',
    ready: heading('Forgot Password'),
  },
  {
    name: 'reset-password',
    as: 'visitor',
    path: () => '/reset-password/some-token',
    ready: heading('Reset Password'),
  },
  {
    name: 'verify-email-invalid',
    as: 'visitor',
    path: () => '/verify-email/not-a-token',
    ready: (p) => p.getByRole('alert'),
  },
  {
    name: 'how-to-sell',
    as: 'visitor',
    path: () => '/under-construction',
    ready: (p) => p.getByRole('heading', { name: /How to sell a book/i }),
  },
  {
    name: 'component-preview',
    as: 'visitor',
    path: () => '/component-preview',
    ready: (p) => p.getByRole('heading', { level: 1 }),
    showsLoading: true,
  },
  {
    name: 'not-found',
    as: 'visitor',
    path: () => '/404',
    ready: heading('Uh-Oh! Page Not Found'),
  },
  {
    name: 'home-signed-in',
    as: 'buyer',
    path: () => '/',
    ready: (p) => p.getByText('Recent Additions'),
  },
  {
    name: 'listing-buyer',
    as: 'buyer',
    path: (d) => `/listing/${d.listing._id}`,
    ready: (p) => p.getByRole('link', { name: 'Contact Seller' }),
  },
  {
    name: 'listing-owner',
    as: 'seller',
    path: (d) => `/listing/${d.listing._id}`,
    ready: (p) => p.getByRole('button', { name: 'Your Listing' }),
  },
  {
    name: 'contact-seller',
    as: 'buyer',
    path: (d) => `/contact-seller/${d.seller.id}`,
    ready: heading('Great Choice!'),
  },
  {
    name: 'profile',
    as: 'seller',
    path: () => '/profile',
    ready: heading('Profile'),
    then: async (page) => {
      await page.getByRole('button', { name: 'My Listings' }).click();
      await expect(
        page.getByRole('region', { name: 'Your listings' }).getByRole('listitem'),
      ).not.toHaveCount(0);
    },
  },
  {
    name: 'profile-delete-dialog',
    as: 'seller',
    path: () => '/profile',
    ready: heading('Profile'),
    then: async (page) => {
      await page.getByRole('button', { name: 'Delete account' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
    },
  },
  {
    name: 'create-listing',
    as: 'seller',
    path: () => '/create-listing',
    ready: heading('Create a Listing'),
  },
  {
    name: 'update-listing',
    as: 'seller',
    path: (d) => `/update-listing/${d.listing._id}`,
    ready: (p) => p.getByRole('button', { name: 'Update listing' }),
  },
  {
    name: 'update-listing-not-owner',
    as: 'buyer',
    path: (d) => `/update-listing/${d.listing._id}`,
    ready: (p) => p.getByText("This isn't your listing"),
  },
];

/** Phone widths every page must fit: nothing scrolls sideways. */
const PHONE_WIDTHS = [375, 320];

async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(innerWidth);
}

for (const pageCase of PAGES) {
  test(`${pageCase.name}: axe finds no violations`, async ({ page, data }, testInfo) => {
    const path = pageCase.path(data);
    if (pageCase.as === 'visitor') await page.goto(path);
    else await signInBrowser(page, pageCase.as === 'seller' ? data.seller : data.buyer, path);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    await screenshot(page, testInfo, pageCase.name);
    await expectNoAxeViolations(page);
  });

  test(`${pageCase.name}: no wider than a phone`, async ({ page, data }, testInfo) => {
    test.skip(
      testInfo.project.name !== 'phone',
      'phone widths are checked once, in the phone project',
    );
    const path = pageCase.path(data);
    if (pageCase.as === 'visitor') await page.goto(path);
    else await signInBrowser(page, pageCase.as === 'seller' ? data.seller : data.buyer, path);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    for (const width of PHONE_WIDTHS) await expectNoSidewaysScroll(page, width);
  });

  test(`${pageCase.name}: every tap target is at least 44 px on a phone`, async ({
    page,
    data,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'tap targets are measured in the phone project');
    const path = pageCase.path(data);
    if (pageCase.as === 'visitor') await page.goto(path);
    else await signInBrowser(page, pageCase.as === 'seller' ? data.seller : data.buyer, path);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await smallTapTargets(page)).toEqual([]);
  });
}
