import type { Locator, Page } from '@playwright/test';
import { expect, signInBrowser, test } from '../src/fixtures';
import { createListing } from '../src/users';

/** Layout rules of the phone-first design (issue 17), at the narrowest phone, a common one, a laptop. */
const WIDTHS = [320, 375, 1280] as const;
const SCREEN_HEIGHT = 640;

async function expectOnFirstScreen(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  const height = page.viewportSize()!.height;
  expect(box!.y + box!.height, `${what} ends on the first screen`).toBeLessThanOrEqual(height);
  expect(box!.y, `${what} is below the top`).toBeGreaterThanOrEqual(0);
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    // Phone widths in the phone project, the laptop width in the laptop project.
    test.skip(({ isMobile }) => isMobile !== width < 768, 'each width in its own project');
    test.use({ viewport: { width, height: SCREEN_HEIGHT } });

    test('the listing page shows title, price, condition, course and Contact on the first screen', async ({
      page,
      makeUser,
    }) => {
      const seller = await makeUser('layoutseller');
      const buyer = await makeUser('layoutbuyer');
      const listing = await createListing(seller, {
        name: 'Principles of Organic Chemistry and Its Many Applications',
        courseNumber: '205',
        subject: 'CHEM',
        edition: '8th',
        condition: 'excellent',
        regularPrice: 42,
        description: Array.from({ length: 40 }, (_, i) => `Line ${i} of notes.`).join('\n'),
      });
      await signInBrowser(page, buyer, `/listing/${listing._id}`);
      const main = page.getByRole('main');
      const title = main.getByRole('heading', { level: 1 });
      await expect(title).toBeVisible();
      await expectOnFirstScreen(page, title, 'the title');
      await expectOnFirstScreen(page, page.getByTestId('listing-price'), 'the price');
      await expectOnFirstScreen(page, main.getByText('Excellent').first(), 'the condition');
      await expectOnFirstScreen(
        page,
        main.getByRole('link', { name: /Course CHEM 205/ }).first(),
        'the course',
      );
      const contact = main.getByRole('link', { name: 'Message seller' });
      await expectOnFirstScreen(page, contact, 'the Message seller button');
      // The seller and how long ago: initials for a student without a photo.
      await expect(main.getByText(/listed (just now|\d+ \w+ ago)/)).toBeVisible();
      await expect(main.getByText(seller.username, { exact: true }).first()).toBeVisible();
      await expect(main.getByRole('link', { name: seller.username })).toBeVisible();

      // Scrolled to the price table and beyond: on a phone the contact bar is still on screen.
      await page.getByRole('table').scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 2000);
      if (width < 768) {
        await expectOnFirstScreen(page, contact, 'the Message seller button after scrolling');
        expect(
          await page.getByTestId('contact-bar').evaluate((e) => getComputedStyle(e).position),
        ).toBe('sticky');
      } else {
        expect(
          await page.getByTestId('contact-bar').evaluate((e) => getComputedStyle(e).position),
        ).toBe('static');
      }
    });

    test('cards clamp titles to two lines and show the edition and age', async ({
      page,
      makeUser,
    }) => {
      const seller = await makeUser('cardseller');
      const tag = `zc${seller.lastName.slice(-5).toLowerCase()}`;
      const listing = await createListing(seller, {
        name: `${tag} a long title going on about linear algebra and more`,
        courseNumber: '245',
        edition: '6th',
      });
      await page.goto(`/search?searchTerm=${tag}`);
      const card = page.getByRole('region', { name: 'Listing results' }).getByRole('listitem');
      await expect(card).toHaveCount(1);
      const titleLink = card.getByRole('link', { name: new RegExp(tag, 'i') });
      const { lines, clamp } = await titleLink.evaluate((e) => ({
        lines: e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight),
        clamp: getComputedStyle(e).webkitLineClamp,
      }));
      expect(clamp).toBe('2');
      expect(lines).toBeLessThanOrEqual(2.05);
      await expect(card.getByText('6th edition')).toBeVisible();
      await expect(card.getByText(/just now|ago/)).toBeVisible();
      expect(listing._id).toBeTruthy();
    });

    test('search shows the term and filters as removable chips, a count, and no lone last card', async ({
      page,
      makeUser,
    }) => {
      test.setTimeout(90_000);
      const seller = await makeUser('chipseller');
      const tag = `zh${seller.lastName.slice(-5).toLowerCase()}`;
      // 11 matches: a first page of 9 (odd) with more to load.
      for (let i = 0; i < 11; i += 1) {
        await createListing(seller, {
          name: `${tag} reader ${i}`,
          courseNumber: '101',
          condition: 'good',
        });
      }
      await page.goto(`/search?searchTerm=${tag}&condition=good`);
      const results = page.getByRole('region', { name: 'Listing results' });
      await expect(results.getByTestId('result-count')).toHaveText(`11 books for ${tag}`);
      const chips = page.getByRole('group', { name: 'Active filters' });
      await expect(chips.getByRole('button')).toHaveText([`“${tag}”`, 'Good']);

      // Never a lone card on the last row while more can be loaded.
      const visibleCards = await results
        .getByRole('listitem')
        .evaluateAll((items) => items.filter((i) => getComputedStyle(i).display !== 'none').length);
      const columns = await results
        .getByRole('list')
        .first()
        .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
      expect(visibleCards % columns, `${visibleCards} cards in ${columns} columns`).toBe(0);

      await chips.getByRole('button', { name: 'Remove filter Good' }).click();
      await expect(page).not.toHaveURL(/condition=/);
      await expect(chips.getByRole('button')).toHaveText([`“${tag}”`]);
    });

    test('the search box is on the first screen without opening the filters', async ({
      page,
    }, testInfo) => {
      await page.goto('/search');
      const filters = page.getByRole('form', { name: 'Filters' });
      const searchBox = filters.getByRole('searchbox', { name: 'Search by Name' });
      await expect(searchBox).toBeVisible();
      await expectOnFirstScreen(page, searchBox, 'the search box');
      const toggle = page.getByRole('button', { name: 'Search filters' });
      if (width < 768) {
        // The other filters fold away on a phone, until asked for; Search stays beside the box.
        const searchButton = filters.getByRole('button', { name: 'Search', exact: true });
        await expectOnFirstScreen(page, searchButton, 'the Search button');
        await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        await expect(filters.getByLabel('Max price ($)')).toBeHidden();
      } else {
        await expect(toggle).toBeHidden();
      }
      await testInfo.attach(`search-${width}`, {
        body: await page.screenshot(),
        contentType: 'image/png',
      });
      await searchBox.fill('calculus');
      await searchBox.press('Enter');
      await expect(page).toHaveURL(/[?&]searchTerm=calculus(&|$)/);
      await expect(searchBox).toHaveValue('calculus');
    });

    test('empty results say what to do next', async ({ page }) => {
      await page.goto('/search?searchTerm=qqqqzzzzqqqq&condition=poor');
      const results = page.getByRole('region', { name: 'Listing results' });
      await expect(results.getByText('No listing found!')).toBeVisible();
      await expect(results.getByRole('link', { name: 'Sell a book' })).toBeVisible();
      await results.getByRole('button', { name: 'Clear all filters' }).click();
      await expect(page).not.toHaveURL(/searchTerm/);
    });
  });
}
