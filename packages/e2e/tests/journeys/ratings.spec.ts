import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import type { Browser } from '@playwright/test';
import { MEETUP_MESSAGES } from '@campus-books/common/meetup.schemas';
import { defaultCampus } from '../../src/campus';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { createListing, type TestUser } from '../../src/users';

// Two browsers at once in one test: run once, from the laptop project.
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'laptop', 'the journey opens its own phone and laptop');
});

async function openBrowser(browser: Browser, user: TestUser, width: 375 | 1280, path: string) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
    isMobile: width === 375,
    hasTouch: width === 375,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await signInBrowser(page, user, path);
  return page;
}

test('buyer and seller of a recorded sale meet at a safe spot, then rate it; neither sees the other rating first', async ({
  browser,
  makeUser,
}, testInfo) => {
  test.slow();
  const seller = await makeUser('rateseller');
  const buyer = await makeUser('ratebuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const listing = await createListing(seller, {
    name: `microeconomics ${tag}`,
    courseNumber: '102',
    regularPrice: 25,
  });
  const { conversationId } = await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: 'Can we meet on campus?' },
  });

  const phone = await openBrowser(browser, buyer, 375, `/messages/${conversationId}`);
  const laptop = await openBrowser(browser, seller, 1280, `/messages/${conversationId}`);
  const spot = defaultCampus().meetupSpots[0]!;

  await test.step('the seller suggests a meetup at a campus spot; the buyer accepts and downloads its .ics', async () => {
    await laptop.getByRole('button', { name: 'Suggest a meetup' }).click();
    await laptop.getByLabel('Safe meetup spot').selectOption(spot.id);
    // Without a time the suggestion's own schema answers, under the field.
    await laptop.getByRole('button', { name: 'Send suggestion' }).click();
    await expect(laptop.getByText(MEETUP_MESSAGES.timeRequired)).toBeVisible();
    const tomorrow = new Date(Date.now() + 24 * 60 * 60_000);
    const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T15:30`;
    await laptop.getByLabel('Date and time').fill(local);
    await laptop.getByRole('button', { name: 'Send suggestion' }).click();
    await expect(laptop.getByText('Suggested by you')).toBeVisible();

    await phone.reload();
    await expect(phone.getByTestId('student-summary')).toContainText(seller.username);
    await phone.getByRole('button', { name: 'Accept meetup' }).click();
    const calendarLink = phone.getByRole('link', { name: 'Add to calendar (.ics)' });
    await expect(calendarLink).toBeVisible();
    await screenshot(phone, testInfo, 'meetup-accepted-375');
    const [download] = await Promise.all([phone.waitForEvent('download'), calendarLink.click()]);
    const text = await readFile((await download.path())!, 'utf8');
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!,
    );
    expect(event.location).toContain(spot.name);
    expect(event.summary).toContain('microeconomics');
    // The buyer's entry says whom they meet.
    expect(event.summary).toContain(`Book exchange with ${seller.username}:`);
    expect(event.startDate.toJSDate().getTime()).toBeGreaterThan(Date.now());
  });

  await test.step('the sale to the buyer is recorded', async () => {
    await seller.api.call('POST /api/conversations/listing/:listingId/sold', {
      params: { listingId: listing._id },
      body: { buyerId: buyer.id },
    });
  });

  await test.step('the buyer rates first; the seller sees that, never how', async () => {
    await phone.goto('/ratings');
    await expect(phone.getByText(/until both have rated, or 10 days have passed\./)).toBeVisible();
    const mine = phone.getByRole('form', { name: /Rate your exchange/ });
    await mine.getByLabel('Thumbs up').check();
    await mine.getByLabel('On time').check();
    await mine.getByLabel('As described').check();
    await mine.getByLabel('Comment (optional)').fill('Easy handover at the library');
    await expectNoAxeViolations(phone);
    await mine.getByRole('button', { name: 'Send rating' }).click();
    await expect(phone.getByText('Your rating')).toBeVisible();
    await expect(phone.getByTestId('their-rating')).toContainText('Both ratings show once');

    await laptop.goto('/ratings');
    await expect(laptop.getByTestId('their-rating')).toContainText('has rated');
    await expect(laptop.getByText('Easy handover at the library')).toHaveCount(0);
    await screenshot(laptop, testInfo, 'ratings-waiting-1280');
  });

  await test.step('the seller rates; both ratings show to both at once', async () => {
    const form = laptop.getByRole('form', { name: /Rate your exchange/ });
    await form.getByLabel('Thumbs up').check();
    await form.getByLabel('Friendly').check();
    await form.getByRole('button', { name: 'Send rating' }).click();
    await expect(laptop.getByText('Easy handover at the library')).toBeVisible();
    await phone.reload();
    await expect(phone.getByTestId('their-rating')).toContainText('Friendly');
    await screenshot(phone, testInfo, 'ratings-revealed-375');
  });

  await test.step("the seller's profile shows the exchange and the comment", async () => {
    await phone.goto(`/u/${seller.id}`);
    await expect(phone.getByRole('heading', { level: 1, name: seller.username })).toBeVisible();
    await expect(phone.getByText('Completed exchanges')).toBeVisible();
    await expect(phone.getByText('Easy handover at the library')).toBeVisible();
    await expect(phone.getByText('As described × 1')).toBeVisible();
    await laptop.goto(`/u/${buyer.id}`);
    await expect(laptop.getByText('Easy handover at the library')).toHaveCount(0);
    await expect(laptop.getByText('Friendly × 1')).toBeVisible();
    await expectNoAxeViolations(laptop);
    await screenshot(laptop, testInfo, 'public-profile-1280');
    await screenshot(phone, testInfo, 'public-profile-375');
  });
  await phone.context().close();
  await laptop.context().close();
});
