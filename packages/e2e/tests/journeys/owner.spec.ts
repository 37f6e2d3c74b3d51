import { displayName } from '@campus-books/common/display';
import { watchCspViolations } from '../../src/csp-watch';
import { expect, signInBrowser, test } from '../../src/fixtures';
import {
  expectNoAxeViolations,
  expectTapTarget,
  screenshot,
  smallTapTargets,
  widerThanViewport,
} from '../../src/page-check';
import { createListing } from '../../src/users';

test('the owner edits a listing, marks it sold and relists it', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('owner');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const listing = await createListing(seller, {
    name: `linear algebra ${tag}`,
    courseNumber: '245',
    regularPrice: 30,
  });
  const newName = `linear algebra done right ${tag}`;
  const main = page.getByRole('main');
  const results = page.getByRole('region', { name: 'Listing results' });

  await test.step('the owner sees "Your Listing" instead of a contact button', async () => {
    await signInBrowser(page, seller, `/listing/${listing._id}`);
    await expect(page.getByRole('button', { name: 'Your Listing' })).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Contact Seller' })).toHaveCount(0);
  });

  await test.step('edit it', async () => {
    await main.getByRole('link', { name: 'Edit listing' }).click();
    await expect(page.getByRole('heading', { name: 'Update a Listing' })).toBeVisible();
    const name = page.getByLabel('Name', { exact: true });
    await expect(name).toHaveValue(listing.name);
    await expect(page.getByLabel('Course Number')).toHaveValue('245');
    await name.fill(newName);
    await page.getByLabel('Regular price ($)').fill('1250');
    await page.getByLabel('Poor').check();
    await page.getByRole('button', { name: 'Update listing' }).click();
    await expect(page).toHaveURL(`/listing/${listing._id}`);
    await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
    await expect(main.getByText('$1,250.00').first()).toBeVisible();
    await expect(main.getByText('Poor', { exact: true })).toBeVisible();
  });

  const buyer = await makeUser('buyer');
  await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: 'Still there?' },
  });

  await test.step('mark it sold: it leaves search and moves to the Sold list', async () => {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'My Listings' }).click();
    const myListings = page.getByRole('region', { name: 'Your listings' });
    await myListings.getByRole('button', { name: `Manage ${newName}` }).click();
    await page.getByRole('menuitem', { name: `Mark as sold ${newName}` }).click();
    // The same "sold to whom?" as in a conversation: the students who wrote, or someone else.
    const dialog = page.getByRole('dialog', { name: 'Sold to whom?' });
    await expect(dialog.getByRole('radio', { name: 'Someone else' })).toBeChecked();
    await dialog.getByRole('radio', { name: buyer.username }).check();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'mark-sold-my-listings');
    await dialog.getByRole('button', { name: 'Mark sold' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('status').filter({ hasText: 'Listing marked as sold' }),
    ).toBeVisible();
    await myListings.getByRole('tab', { name: /^Sold/ }).click();
    const sold = myListings.getByRole('tabpanel', { name: 'Sold' });
    await expect(sold.getByRole('link', { name: newName })).toBeVisible();
    await page.goto(`/search?searchTerm=${encodeURIComponent(newName)}`);
    await expect(page.getByText('No listing found!')).toBeVisible();
  });

  await test.step('relist it: it is back in search', async () => {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'My Listings' }).click();
    await page.getByRole('tab', { name: /^Sold/ }).click();
    await page.getByRole('button', { name: `Manage ${newName}` }).click();
    await page.getByRole('menuitem', { name: `Relist ${newName}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'for sale again' })).toBeVisible();
    await page.goto(`/search?searchTerm=${encodeURIComponent(newName)}`);
    await expect(results.getByRole('link', { name: newName })).toBeVisible();
  });
});

test('the owner deletes a listing from the profile: it and its photo are gone', async ({
  page,
  request,
  makeUser,
}) => {
  const seller = await makeUser('tidy');
  const name = `discrete mathematics ${seller.lastName.slice(-5).toLowerCase()}`;
  const listing = await createListing(seller, { name, courseNumber: '222' });
  const imageUrl = listing.imageUrls[0]!;

  await signInBrowser(page, seller, '/profile');
  await page.getByRole('button', { name: 'My Listings' }).click();
  await page.getByRole('button', { name: `Manage ${name}` }).click();
  await page.getByRole('menuitem', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this listing?' });
  await expect(dialog).toContainText(displayName(name));
  await dialog.getByRole('button', { name: 'Delete listing' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Listing deleted' })).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);

  expect((await request.get(`/api/listing/get/${listing._id}`)).status()).toBe(404);
  expect((await request.get(imageUrl)).status()).toBe(404);
});

test('My Listings by keyboard at 320 px: arrow keys move between the tabs, Escape closes a menu', async ({
  page,
  makeUser,
}) => {
  const seller = await makeUser('keys');
  const name = `organic chemistry ${seller.lastName.slice(-5).toLowerCase()}`;
  await createListing(seller, { name, courseNumber: '231' });
  await page.setViewportSize({ width: 320, height: 720 });
  // The menu opens without a style the page's CSP refuses (a modal menu's scroll lock adds one).
  const violations = await watchCspViolations(page);
  await signInBrowser(page, seller, '/profile');
  await page.getByRole('button', { name: 'My Listings' }).click();
  const myListings = page.getByRole('region', { name: 'Your listings' });
  const activeTab = myListings.getByRole('tab', { name: 'Active (1)' });
  const soldTab = myListings.getByRole('tab', { name: 'Sold (0)' });

  await test.step('ArrowRight and ArrowLeft move between the tabs and show their panels', async () => {
    await activeTab.focus();
    await page.keyboard.press('ArrowRight');
    await expect(soldTab).toBeFocused();
    await expect(soldTab).toHaveAttribute('aria-selected', 'true');
    await expect(myListings.getByRole('tabpanel', { name: 'Sold' })).toContainText(
      'Nothing sold yet',
    );
    await page.keyboard.press('ArrowLeft');
    await expect(activeTab).toBeFocused();
    await expect(activeTab).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('the Manage menu: arrow keys within it, Escape closes it onto its button', async () => {
    const manage = myListings.getByRole('button', { name: `Manage ${name}` });
    await manage.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: `Edit ${name}` })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: `Mark as sold ${name}` })).toBeFocused();
    expect(await smallTapTargets(page)).toEqual([]);
    expect(await widerThanViewport(page)).toEqual([]);
    for (const item of await menu.getByRole('menuitem').all()) {
      const box = await expectTapTarget(item);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
    }
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(manage).toBeFocused();
  });
  expect(await violations()).toEqual([]);
});
