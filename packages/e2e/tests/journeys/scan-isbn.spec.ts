import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumFlags, PAGE_CHROMIUM } from '../../playwright.config';
import { writeBarcodeVideo } from '../../src/barcode';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { createListing } from '../../src/users';
import { jpegFile, uploadImages } from '../../src/picker';

/** The fake providers know this book (test/support/fake-book-providers.ts "hit"). */
const ISBN = '9780262033848';
// Every process that loads this file (the runner lists its tests too) makes the video, and removes
// it when it exits.
const videoFolder = mkdtempSync(path.join(tmpdir(), 'cb-scan-'));
process.on('exit', () => rmSync(videoFolder, { recursive: true, force: true }));
const video = await writeBarcodeVideo(videoFolder, ISBN);

// Chromium's fake camera films the barcode on the back cover.
test.use({
  launchOptions: {
    executablePath: PAGE_CHROMIUM,
    args: [
      ...chromiumFlags,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  },
  permissions: ['camera'],
});

test('a seller on a phone scans the barcode, gets the book filled in and a price hint, and publishes', async ({
  page,
  makeUser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the scan journey is a phone journey');
  const seller = await makeUser('scanner');
  // Another student already sells a copy: the price hint and "Other copies on campus" show it.
  const other = await makeUser('other-seller');
  await createListing(other, {
    name: 'CLRS, some notes',
    courseNumber: '101',
    isbn: '978-0-262-03384-8',
    regularPrice: 42,
    condition: 'excellent',
  });
  const started = Date.now();

  await test.step('scan the ISBN with the rear camera', async () => {
    await signInBrowser(page, seller, '/create-listing');
    await page.getByRole('button', { name: 'Scan ISBN' }).click();
    await expect(page.getByLabel('ISBN', { exact: true })).toHaveValue(ISBN, { timeout: 20_000 });
  });

  await test.step('autofill fills the empty fields and says which; the price hint shows', async () => {
    await expect(page.getByTestId('autofill-note')).toContainText(
      'Filled in from the ISBN: title, authors, edition',
    );
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(
      'Introduction to Algorithms',
    );
    await expect(page.getByLabel('Authors')).toHaveValue('Thomas H. Cormen, Charles E. Leiserson');
    await expect(page.getByLabel('Edition')).toHaveValue('3rd ed.');
    await expect(page.getByTestId('price-hint')).toContainText('1 copy for sale: $42');
  });

  await test.step('add a photo of the copy and publish', async () => {
    await page.getByLabel('Course Number').fill('315');
    await page.getByLabel('Subject').selectOption('CMSC');
    await page.getByLabel('Regular price ($)').fill('50');
    await uploadImages(page.locator('form'), [jpegFile('my-copy.jpg', await bookCover(210))], 1);
    await page.getByRole('button', { name: 'Create listing' }).click();
    await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
    await expect(page.getByText(`ISBN ${ISBN}`)).toBeVisible();
    const others = page.getByRole('region', { name: 'Other copies on campus' });
    await expect(others.getByRole('link', { name: 'CLRS, some notes' })).toBeVisible();
    await expect(others).toContainText('Excellent');
  });
  testInfo.annotations.push({
    type: 'scripted time, scan to published',
    description: `${((Date.now() - started) / 1000).toFixed(1)} s`,
  });

  await test.step('it is on its course page, reached from the course badge', async () => {
    await page.getByRole('link', { name: /^Course CMSC 315/ }).click();
    await expect(page).toHaveURL(/\/course\/CMSC-315$/);
    await expect(page.getByRole('heading', { level: 1, name: 'CMSC 315' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Introduction to Algorithms' })).toBeVisible();
  });

  await test.step('and an ISBN search in any form finds it', async () => {
    await page.goto('/search?searchTerm=0-262-03384-4');
    await expect(
      page.getByRole('link', { name: 'Introduction to Algorithms' }).first(),
    ).toBeVisible();
  });
});

test('without an ISBN, the name and course give the price hint', async ({
  page,
  makeUser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone journey');
  const other = await makeUser('econ-seller');
  const title = `Principles of Economics ${other.lastName.slice(-5)}`;
  await createListing(other, {
    name: title,
    subject: 'ECON',
    courseNumber: '101',
    regularPrice: 30,
  });
  const seller = await makeUser('econ-buyer');
  await signInBrowser(page, seller, '/create-listing');
  await page.getByLabel('Name', { exact: true }).fill(title.toUpperCase());
  await page.getByLabel('Course Number').fill('101');
  await page.getByLabel('Subject').selectOption('ECON');
  await expect(page.getByTestId('price-hint')).toContainText('1 copy for sale: $30.00');
});
