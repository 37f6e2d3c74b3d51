import { expect, test as base } from '@playwright/test';
import { signInBrowser } from '../../src/fixtures';
import { ownServer, type OwnServer } from '../../src/own-server';
import { linkIn, waitForMail } from '../../src/mail';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { createListing, createUser, deleteUser } from '../../src/users';

/**
 * Listings live LISTING_LIFETIME_DAYS (60 by default): this journey's server of its own is restarted
 * with its clock 61 days on (TEST_CLOCK_OFFSET_DAYS, refused in production), so the real expiry job
 * expires the listing, and the seller relists it in the browser.
 */
const test = base.extend<{ server: OwnServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
  server: async ({}, use) => {
    const server = await ownServer();
    try {
      await server.start();
      await use(server);
    } finally {
      await server.dispose();
    }
  },
  baseURL: async ({ server }, use) => use(server.url),
});

test('an expired listing: the seller sees it expired, relists it, and it is back in search', async ({
  page,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  const seller = await createUser('expiring', server);
  const tag = seller.lastName.slice(-5).toLowerCase();
  const name = `expiring statistics ${tag}`;
  const listing = await createListing(seller, { name, courseNumber: '215' });
  const results = page.getByRole('region', { name: 'Listing results' });

  await test.step('61 days later the expiry job takes it out of search', async () => {
    await server.start({ TEST_CLOCK_OFFSET_DAYS: '61' });
    // Waits for the real job (every second on this server), not for a fixed time.
    await expect
      .poll(
        async () =>
          (await seller.api.call('GET /api/listing/get/:id', { params: { id: listing._id } }))
            .status,
        {
          timeout: 30_000,
        },
      )
      .toBe('expired');
    await signInBrowser(page, seller, `/search?searchTerm=${encodeURIComponent(name)}`);
    await expect(results.getByText('No listing found!')).toBeVisible();
  });

  await test.step('the seller is mailed once, with a link that asks before it relists', async () => {
    const mail = await waitForMail(seller.email, /^Expired: /, { outbox: server.outboxDir });
    expect(mail.subject).toBe(`Expired: "${name}" - relist it in one click`);
    await page.goto(linkIn(mail, '/listing-link/'));
    await expect(page.getByRole('heading', { name: 'Relist your book?' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Relist it' })).toBeVisible();
    await expectNoAxeViolations(page);
    // Not pressed here: the profile's Relist below does it (and then this link no longer works).
  });

  await test.step('the profile shows it under Expired, with Relist', async () => {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'My Listings' }).click();
    const expired = page.getByRole('region', { name: 'Expired' });
    await expect(expired.getByRole('link', { name })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Active (0)' })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'profile-expired-listing');
    await expired.getByRole('button', { name: `Relist ${name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'for sale again' })).toBeVisible();
    await expect(expired).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Active (1)' })).toBeVisible();
  });

  await test.step('it is back in search', async () => {
    await page.goto(`/search?searchTerm=${encodeURIComponent(name)}`);
    await expect(results.getByRole('link', { name })).toBeVisible();
    await expect(results.getByTestId('result-count')).toHaveText(`1 book for ${name}`);
  });

  await deleteUser(seller);
});
