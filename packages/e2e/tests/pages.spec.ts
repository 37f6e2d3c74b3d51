import type { Listing } from '@campus-books/common/listing.schemas';
import type { Page } from '@playwright/test';
import { expect, test as base } from '../src/fixtures';
import { expectNoAxeViolations, screenshot, settle, smallTapTargets } from '../src/page-check';
import { bookCover } from '../src/images';
import { openRoutePage, ROUTE_PAGES, type RoutePageData } from '../src/route-pages';
import { createListing, createUser, deleteUser } from '../src/users';

/** One seller with a listing and one buyer for every page of this file (per project). */
const test = base.extend<object, { data: RoutePageData }>({
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

for (const pageCase of ROUTE_PAGES) {
  test(`${pageCase.name}: axe finds no violations`, async ({ page, data }, testInfo) => {
    await openRoutePage(page, pageCase, data);
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
    await openRoutePage(page, pageCase, data);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    for (const width of PHONE_WIDTHS) await expectNoSidewaysScroll(page, width);
  });

  test(`${pageCase.name}: every tap target is at least 44 px on a phone`, async ({
    page,
    data,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'tap targets are measured in the phone project');
    await openRoutePage(page, pageCase, data);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await smallTapTargets(page)).toEqual([]);
  });
}
