import type { Locator } from '@playwright/test';
import { MAX_IMAGES_ON_CREATE } from '@campus-books/common/constants';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { screenshot } from '../../src/page-check';
import { bookCover } from '../../src/images';
import { jpegFile, uploadImages } from '../../src/picker';

/** Two books the local book-provider stand-in knows, and one it does not (typed by hand). */
const BOOKS = [
  { isbn: '9780262033848', title: 'Introduction to Algorithms', price: '45' },
  { isbn: '9780306406157', title: null, price: '30' },
  { isbn: '9780000000019', title: 'Discrete Mathematics, my notes', price: '12' },
] as const;

/**
 * The room a select leaves its chosen option's text, less the text's width, in CSS px (negative:
 * the text is cut). Chromium draws the arrow inside the right padding's edge; ARROW is its width.
 */
function spareRoomOfChoice(select: Locator): Promise<number> {
  return select.evaluate((element: HTMLSelectElement) => {
    const ARROW = 20;
    const style = getComputedStyle(element);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = context.measureText(element.selectedOptions[0]?.text ?? '').width;
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return element.clientWidth - padding - ARROW - text;
  });
}

test('a seller lists three books in a row, closes the tab half way, finds the drafts and publishes all', async ({
  page,
  browser,
  makeUser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the shelf journey is a phone journey');
  const seller = await makeUser('shelf');
  const titles: string[] = [];

  async function addBook(shelfPage: typeof page, book: (typeof BOOKS)[number], seed: number) {
    await shelfPage.getByLabel('ISBN', { exact: true }).fill(book.isbn);
    const title = shelfPage.getByLabel('Title');
    if (book.title === null) {
      await expect(shelfPage.getByTestId('shelf-autofill-note')).toContainText('Found');
      await expect(title).not.toHaveValue('');
    } else if (book.isbn === BOOKS[0].isbn) {
      await expect(title).toHaveValue(book.title);
    } else {
      await expect(shelfPage.getByTestId('shelf-autofill-note')).toContainText(/know this book/);
      await title.fill(book.title);
    }
    titles.push(await title.inputValue());
    await shelfPage.getByLabel('Subject').selectOption('CMSC');
    await shelfPage.getByLabel('Course number').fill('330');
    await shelfPage.getByLabel('Condition').selectOption('good');
    await shelfPage.getByLabel('Price ($)').fill(book.price);
    await uploadImages(shelfPage, [jpegFile(`shelf-${seed}.jpg`, await bookCover(seed))], 1);
    await shelfPage.getByRole('button', { name: 'Next book' }).click();
  }

  await test.step('two books, each saved as a draft', async () => {
    await signInBrowser(page, seller, '/sell-my-shelf');
    await expect(page.getByRole('heading', { level: 1, name: 'Sell my shelf' })).toBeVisible();
    // The limit a draft keeps (the server's), and a subject select that shows its words whole.
    await expect(
      page.getByText(`The first image will be the cover (max ${MAX_IMAGES_ON_CREATE})`),
    ).toBeVisible();
    await expect(page.getByLabel('Subject')).toHaveValue('');
    await screenshot(page, testInfo, 'sell-my-shelf-start');
    for (const width of [320, 375]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await spareRoomOfChoice(page.getByLabel('Subject')), `at ${width} px`).toBeGreaterThan(
        0,
      );
    }
    await addBook(page, BOOKS[0], 40);
    await addBook(page, BOOKS[1], 160);
    const drafts = page.getByTestId('shelf-draft');
    await expect(drafts).toHaveCount(2);
    await expect(drafts.filter({ hasText: 'saved' })).toHaveCount(2);
  });

  // The tab is closed; the same account opens the flow again in a fresh browser (no local copy).
  const cookies = await page.context().cookies();
  await page.context().close();
  const context = await browser.newContext({
    viewport: { width: 375, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  await context.addCookies(cookies);
  const again = await context.newPage();

  await test.step('the drafts are there again; the third book; publish all', async () => {
    await again.goto('/sell-my-shelf');
    await expect(again.getByTestId('shelf-draft')).toHaveCount(2);
    for (const title of titles) {
      await expect(again.getByTestId('shelf-draft').filter({ hasText: title })).toBeVisible();
    }
    await addBook(again, BOOKS[2], 280);
    await expect(again.getByTestId('shelf-draft')).toHaveCount(3);
    await again.getByRole('button', { name: 'Publish all (3)' }).click();
    await expect(again.getByTestId('publish-report')).toContainText('3 published');
    // The result is where the student's eyes and focus are, not off screen above the button.
    const result = again.getByRole('heading', { name: /^3 published/ });
    await expect(result).toBeFocused();
    await expect(result).toBeInViewport();
    await screenshot(again, testInfo, 'sell-my-shelf-published');
    await expect(again.getByTestId('shelf-draft')).toHaveCount(0);
  });

  await test.step('the three listings are on the course page', async () => {
    await again.goto('/course/CMSC-330');
    for (const title of titles) await expect(again.getByText(title).first()).toBeVisible();
  });
  await context.close();

  await test.step("and in another student's /my-courses, under CMSC 330", async () => {
    const buyer = await makeUser('shelfbuyer');
    await buyer.api.call('POST /api/my-courses/add', { body: { text: 'cmsc 330' } });
    const other = await browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
      hasTouch: true,
    });
    const page2 = await other.newPage();
    await signInBrowser(page2, buyer, '/my-courses');
    const course = page2.getByRole('region', { name: 'CMSC 330' });
    for (const title of titles) {
      const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await expect(course.getByText(new RegExp(escaped, 'i')).first()).toBeVisible();
    }
    await other.close();
  });
});
