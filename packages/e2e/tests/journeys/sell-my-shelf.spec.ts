import { expect, signInBrowser, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { jpegFile, uploadImages } from '../../src/picker';

/** Two books the local book-provider stand-in knows, and one it does not (typed by hand). */
const BOOKS = [
  { isbn: '9780262033848', title: 'Introduction to Algorithms', price: '45' },
  { isbn: '9780306406157', title: null, price: '30' },
  { isbn: '9780000000019', title: 'Discrete Mathematics, my notes', price: '12' },
] as const;

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
    await expect(again.getByTestId('shelf-draft')).toHaveCount(0);
  });

  await test.step('the three listings are on the course page', async () => {
    await again.goto('/course/CMSC-330');
    for (const title of titles) await expect(again.getByText(title).first()).toBeVisible();
  });
  await context.close();

  await test.step("and in another student's /my-courses, under CMSC 330", async () => {
    const buyer = await makeUser('shelfbuyer');
    await buyer.api.post('/api/my-courses/add', { text: 'cmsc 330' });
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
