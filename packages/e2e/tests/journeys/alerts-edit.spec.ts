import { expect, isPhone, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot, settle } from '../../src/page-check';
import { createListing } from '../../src/users';

test('a student edits an alert’s maximum price, by keyboard, and it stays saved', async ({
  page,
  makeUser,
}, testInfo) => {
  const buyer = await makeUser('editor');
  const course = String(600 + Math.floor(Math.random() * 300));
  await buyer.api.call('POST /api/alerts/create', {
    body: { subject: 'ECON', courseNumber: course, maxPrice: 30 },
  });
  await buyer.api.call('POST /api/alerts/create', {
    body: { subject: 'ECON', courseNumber: '100' },
  });
  // The narrowest phone the app supports: the form must fit it.
  if (isPhone(page)) await page.setViewportSize({ width: 320, height: 700 });

  await signInBrowser(page, buyer, '/profile/alerts');
  await settle(page, (p) => p.getByRole('heading', { name: 'Your alerts' }));
  const row = page.getByRole('listitem').filter({ hasText: `course ECON ${course}` });
  await expect(row).toContainText('at most $30.00');

  await test.step('Edit opens the form with the alert’s filters, focused', async () => {
    await row.getByRole('button', { name: /^Edit alert:/ }).click();
    await expect(row.getByRole('heading', { name: 'Edit this alert' })).toBeFocused();
    await expect(row.getByLabel('Course number')).toHaveValue(course);
    await expect(row.getByLabel('Maximum price ($)')).toHaveValue('30');
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'alerts-edit-form');
  });

  await test.step('an edit that copies the other alert is refused, and nothing changes', async () => {
    await row.getByLabel('Course number').fill('100');
    await row.getByLabel('Maximum price ($)').fill('');
    await row.getByRole('button', { name: 'Save alert' }).click();
    await expect(row.getByRole('alert')).toContainText(
      'You already have an alert for these filters',
    );
  });

  await test.step('a new maximum, typed and saved with Enter, survives a reload', async () => {
    await row.getByLabel('Course number').fill(course);
    const price = row.getByLabel('Maximum price ($)');
    await price.fill('45');
    await price.press('Enter');
    await expect(row.getByRole('heading', { name: 'Edit this alert' })).toBeHidden();
    await expect(row).toContainText('at most $45.00');
    await page.reload();
    await settle(page, (p) => p.getByRole('heading', { name: 'Your alerts' }));
    await expect(
      page.getByRole('listitem').filter({ hasText: `course ECON ${course}` }),
    ).toContainText('at most $45.00');
    const saved = await buyer.api.call('GET /api/alerts/get');
    expect(saved.find((a) => a.courseNumber === course)).toMatchObject({
      subject: 'ECON',
      maxPrice: 45,
    });
    // No horizontal scrolling at this width.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test('the search keeps a maximum price in the URL, and Notify me carries it', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('seller');
  const buyer = await makeUser('bargain');
  const word = `Thrifty${seller.lastName.slice(-5)}`;
  await createListing(seller, {
    name: `${word} Cheap Edition`,
    courseNumber: '210',
    regularPrice: 20,
  });
  await createListing(seller, {
    name: `${word} Dear Edition`,
    courseNumber: '210',
    regularPrice: 50,
  });

  await signInBrowser(page, buyer, `/search?searchTerm=${word}`);
  await expect(page.getByRole('link', { name: /Dear Edition/ })).toBeVisible();

  await test.step('Max price 30 in the filters keeps only the cheaper listing', async () => {
    if (isPhone(page)) await page.getByRole('button', { name: 'Search filters' }).click();
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Max price ($)').fill('30');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/[?&]maxPrice=30(&|$)/);
    await expect(page.getByRole('button', { name: 'Remove filter Up to $30' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Cheap Edition/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Dear Edition/ })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'search-max-price');
  });

  await test.step('a reload keeps it; Notify me saves an alert with that maximum', async () => {
    await page.reload();
    await expect(page.getByRole('link', { name: /Cheap Edition/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Dear Edition/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Notify me of new matches' }).click();
    await expect(page.getByText('We’ll e-mail you when it’s listed')).toBeVisible();
    const alerts = await buyer.api.call('GET /api/alerts/get');
    expect(alerts).toEqual([expect.objectContaining({ searchTerm: word, maxPrice: 30 })]);
  });
});
