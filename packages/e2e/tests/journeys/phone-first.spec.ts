import { APP_HYDRATED_EVENT } from '@campus-books/common/server-rendering';
import { displayName } from '@campus-books/common/display';
import { MESSAGES } from '@campus-books/common/messages';
import type { Page } from '@playwright/test';
import { defaultCampus } from '../../src/campus';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { screenshot } from '../../src/page-check';
import { imagePicker, jpegFile, pickImages, uploadImages } from '../../src/picker';
import { createListing, type TestUser } from '../../src/users';

const ownListings = (user: TestUser) =>
  user.api.call('GET /api/user/listings/:id', { params: { id: user.id } });

async function fillRequiredFields(page: Page, name: string) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Course Number').fill('230');
}

test('double-clicking "Create listing" creates one listing', async ({ page, makeUser }) => {
  const user = await makeUser('doubler');
  await signInBrowser(page, user, '/create-listing');
  await fillRequiredFields(page, 'thermodynamics');
  await uploadImages(page.locator('form'), [jpegFile('cover.jpg', await bookCover(10))], 1);
  await page.getByRole('button', { name: 'Create listing' }).dblclick();
  await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('button', { name: 'Your Listing' })).toBeVisible();
  // Two clicks in one task, before the page can re-render: still one request, one listing.
  await page.goto('/create-listing');
  await fillRequiredFields(page, 'thermodynamics again');
  await uploadImages(page.locator('form'), [jpegFile('cover.jpg', await bookCover(20))], 1);
  await page.getByRole('button', { name: 'Create listing' }).evaluate((button: HTMLElement) => {
    button.click();
    button.click();
  });
  await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('button', { name: 'Your Listing' })).toBeVisible();
  const listings = await ownListings(user);
  expect(listings.map((l) => l.name).sort()).toEqual(['thermodynamics', 'thermodynamics again']);
});

test('a create sent twice (a retry after a lost answer) makes one listing', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('retrier');
  await signInBrowser(page, user, '/create-listing');
  await fillRequiredFields(page, 'linear algebra');
  await uploadImages(page.locator('form'), [jpegFile('cover.jpg', await bookCover(40))], 1);
  // The network repeats the request exactly, headers and all, as a retry would.
  const copies: Promise<unknown>[] = [];
  await page.route('**/api/listing/create', async (route) => {
    const request = route.request();
    copies.push(
      page.request.post(request.url(), {
        headers: await request.allHeaders(),
        data: request.postData() ?? '',
      }),
    );
    await route.continue();
  });
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
  await Promise.all(copies);
  const listings = await ownListings(user);
  expect(listings).toHaveLength(1);
  expect(page.url()).toContain(listings[0]!._id);
});

test('a reload keeps the draft: fields and uploaded photo come back, until discarded', async ({
  page,
  makeUser,
}, testInfo) => {
  const user = await makeUser('drafter');
  await signInBrowser(page, user, '/create-listing');
  await fillRequiredFields(page, 'organic chemistry draft');
  await page.getByLabel('Description').fill('Some notes in pencil.');
  await uploadImages(page.locator('form'), [jpegFile('cover.jpg', await bookCover(80))], 1);

  // Leaving with unsaved changes asks first; the test says "leave".
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(dialogs).toEqual(['beforeunload']);

  await expect(page.getByRole('status').filter({ hasText: 'Draft restored' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('organic chemistry draft');
  await expect(page.getByLabel('Course Number')).toHaveValue('230');
  await expect(page.getByLabel('Description')).toHaveValue('Some notes in pencil.');
  await expect(imagePicker(page.locator('form')).thumbnails).toHaveCount(1);
  await screenshot(page, testInfo, 'create-listing-draft-restored');

  await page.getByRole('button', { name: 'Discard draft' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await expect(imagePicker(page.locator('form')).thumbnails).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
  await expect(page.getByText('Draft restored')).toHaveCount(0);
});

test('a created listing clears the draft', async ({ page, makeUser }) => {
  const user = await makeUser('finisher');
  await signInBrowser(page, user, '/create-listing');
  await fillRequiredFields(page, 'macroeconomics');
  await uploadImages(page.locator('form'), [jpegFile('cover.jpg', await bookCover(140))], 1);
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
  await page.goto('/create-listing');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await expect(page.getByText('Draft restored')).toHaveCount(0);
});

test('"at least one image" goes away once an upload starts', async ({ page, makeUser }) => {
  const user = await makeUser('uploader');
  await signInBrowser(page, user, '/create-listing');
  await fillRequiredFields(page, 'genetics');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page.getByText(MESSAGES.imagesRequired)).toBeVisible();

  // Hold the upload's data until the check is made, so "while it runs" is certain.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/uploads\/[^/]+$/, async (route) => {
    if (route.request().method() === 'PATCH') await released;
    await route.continue();
  });
  const form = page.locator('form');
  await pickImages(form, [jpegFile('cover.jpg', await bookCover(200))]);
  await expect(imagePicker(form).progress).toBeVisible();
  await expect(page.getByText(MESSAGES.imagesRequired)).toHaveCount(0);
  release();
  await expect(imagePicker(form).thumbnails).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByText(MESSAGES.imagesRequired)).toHaveCount(0);
});

test('the price refuses more than two decimals with a clear message', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('cents');
  await signInBrowser(page, user, '/create-listing');
  await fillRequiredFields(page, 'accounting principles');
  await page.getByLabel('Regular price ($)').fill('12.345');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page.getByText(MESSAGES.priceCents)).toBeVisible();
  await expect(page).toHaveURL(/\/create-listing$/);
});

test("someone else's listing: the edit page says so up front, with a way back", async ({
  page,
  makeUser,
}) => {
  const seller = await makeUser('owner');
  const other = await makeUser('stranger');
  const listing = await createListing(seller, { name: 'world history', courseNumber: '105' });
  await signInBrowser(page, other, `/update-listing/${listing._id}`);
  await expect(page.getByText("This isn't your listing")).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Update listing' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to the listing' }).click();
  await expect(page).toHaveURL(`/listing/${listing._id}`);
});

test('signed in, Start Selling opens the form and sign-in / sign-up pages step aside', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('signedin');
  await signInBrowser(page, user, '/');
  await page.getByRole('link', { name: 'Start Selling' }).click();
  await expect(page).toHaveURL(/\/create-listing$/);
  await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();

  await page.goto('/sign-in');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/sign-up');
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/sign-in?redirectTo=${encodeURIComponent('/profile')}`);
  await expect(page).toHaveURL(/\/profile$/);
  // Only paths of this site: anything else goes home.
  await page.goto(`/sign-in?redirectTo=${encodeURIComponent('//evil.example/x')}`);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('the Major box finds what students mean: "comp sci", "CS", "econ"', async ({ page }) => {
  await page.goto('/search');
  await expect(page.getByRole('heading', { name: 'Listing results' })).toBeVisible();
  const toggle = page.getByRole('button', { name: 'Search filters' });
  if (await toggle.isVisible()) await toggle.click();
  const major = page.getByRole('combobox', { name: 'Major' });
  await major.fill('comp sci');
  const options = page.getByRole('listbox', { name: 'Major' }).getByRole('option');
  await expect(options.nth(1)).toHaveText('Computer Science');
  await major.fill('CS');
  await expect(options.nth(1)).toHaveText('Computer Science');
  await major.fill('econ');
  await expect(options.filter({ hasText: 'Economics (Business)' })).toBeVisible();
});

test('the Major box works from the keyboard: type, filter, arrows, Enter, Escape', async ({
  page,
}) => {
  // The page arrives server-rendered: the keys go to the app once it has taken the page over.
  await page.addInitScript((event) => {
    window.addEventListener(event, () => document.documentElement.setAttribute('data-app', 'on'));
  }, APP_HYDRATED_EVENT);
  await page.goto('/search');
  await expect(page.getByRole('heading', { name: 'Listing results' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-app', 'on');
  const toggle = page.getByRole('button', { name: 'Search filters' });
  if (await toggle.isVisible()) await toggle.click();
  const major = page.getByRole('combobox', { name: 'Major' });
  const listbox = page.getByRole('listbox', { name: 'Major' });
  const options = listbox.getByRole('option');

  await major.focus();
  await major.pressSequentially('econ');
  // Filtered: 'Any major' and the three economics majors, the first one found highlighted.
  await expect(options).toHaveText([
    'Any major',
    'Economics (Arts & Sciences)',
    'Economics (Business)',
    'Mathematical Economics',
  ]);
  await expect(major).toHaveAttribute(
    'aria-activedescendant',
    (await options.nth(1).getAttribute('id'))!,
  );
  await major.press('ArrowDown');
  await expect(major).toHaveAttribute(
    'aria-activedescendant',
    (await options.nth(2).getAttribute('id'))!,
  );
  await major.press('Enter');
  await expect(major).toHaveValue('Economics (Business)');
  await expect(listbox).toBeHidden();

  // An alias by keyboard too; Escape closes without choosing, and the choice stays.
  await major.fill('');
  await major.pressSequentially('CS');
  await expect(options.nth(1)).toHaveText('Computer Science');
  await major.press('Escape');
  await expect(listbox).toBeHidden();
  await expect(major).toHaveValue('Economics (Business)');
  await page
    .getByRole('form', { name: 'Filters' })
    .getByRole('button', { name: 'Search', exact: true })
    .click();
  await expect(page).toHaveURL(/major=Economics(\+|%20)Business/);
});

test('search: the spec\'s sort order and a visible "Loading..."', async ({ page }, testInfo) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/listing\/get\?/, async (route) => {
    await released;
    await route.continue();
  });
  // A landing page arrives rendered with its results; the loading state is seen when the search
  // page is opened from within the app.
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Search Books' }).click();
  await expect(page.getByText('Loading...', { exact: true })).toBeVisible();
  await screenshot(page, testInfo, 'search-loading');
  release();
  await expect(page.getByLabel('Sort by').locator('option')).toHaveText([
    'Price high to low',
    'Price low to high',
    'Latest',
    'Oldest',
  ]);
});

test('the footer credits the operator of the campus configuration, and no one when unnamed', async ({
  page,
}) => {
  await page.goto('/about');
  const footer = page.getByRole('contentinfo');
  const campus = defaultCampus();
  await expect(footer).toContainText(campus.productName);
  const credit = campus.footerCredit;
  if (credit) await expect(footer).toContainText(credit);
  else await expect(footer).not.toContainText('Built by');
});

test('the maximum price fits a 320 px phone card, and names show capitalised', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('pricey');
  const name = `rare first edition ${seller.lastName.slice(-5).toLowerCase()}`;
  await createListing(seller, { name, courseNumber: '499', regularPrice: 10_000_000 });
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto(`/search?searchTerm=${encodeURIComponent(name)}`);
  const card = page.getByRole('region', { name: 'Listing results' }).getByRole('article');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('link', { name: displayName(name), exact: true })).toBeVisible();
  const price = card.getByText('$10,000,000.00');
  await expect(price).toBeVisible();
  await screenshot(page, testInfo, 'search-max-price-320');
  const [cardBox, priceBox] = [await card.boundingBox(), await price.boundingBox()];
  expect(priceBox!.x + priceBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
  expect(await price.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // On one line, not broken in the middle of the number.
  const lines = await price.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );

  // The delete dialog names the book as every page shows it.
  await signInBrowser(page, seller, '/profile');
  await page.getByRole('button', { name: 'My Listings' }).click();
  await page.getByRole('button', { name: `Manage ${name}` }).click();
  await page.getByRole('menuitem', { name: `Delete ${name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Delete this listing?' })).toContainText(
    `“${displayName(name)}”`,
  );
});
