import { expect, signInBrowser, test } from '../../src/fixtures';
import { linkIn, mailsTo, waitForMail } from '../../src/mail';
import { expectNoAxeViolations, screenshot, settle } from '../../src/page-check';
import { createListing } from '../../src/users';

test('a buyer asks to be told, hears of the listing, and stops the alert with one click', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('seller');
  const buyer = await makeUser('buyer');
  const watcher = await makeUser('watcher');
  const title = `Thermodynamics ${seller.lastName.slice(-5)}`;

  await test.step('the search finds nothing; "Notify me" keeps it as an alert', async () => {
    await signInBrowser(page, buyer, `/search?searchTerm=${encodeURIComponent(title)}`);
    await expect(page.getByText('No listing found!')).toBeVisible();
    // A double tap saves one alert: the button sends one request (issue 26 item 5).
    const creates: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/alerts/create') creates.push(request.method());
    });
    await page.getByRole('button', { name: 'Notify me when it’s listed' }).dblclick();
    await expect(page.getByRole('status')).toContainText('We’ll e-mail you when it’s listed');
    expect(creates).toEqual(['POST']);
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'alerts-notify-me');
  });

  await test.step('a seller lists it; the buyer’s mail arrives with a working link', async () => {
    const listing = await createListing(seller, { name: title, courseNumber: '301' });
    const mail = await waitForMail(buyer.email, /^Listed: /, { timeoutMs: 60_000 });
    expect(mail.text).toContain(title);
    await page.goto(linkIn(mail, '/listing/'));
    await expect(page).toHaveURL(`/listing/${listing._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Thermodynamics');
  });

  await test.step('the heart saves it; /saved lists it', async () => {
    const heart = page.getByRole('button', { name: /^Save / });
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await page.goto('/saved');
    await settle(page, (p) => p.getByRole('heading', { name: 'Saved listings' }));
    await expect(page.getByRole('link', { name: /Thermodynamics/ })).toBeVisible();
    // Mails about saved listings are on until the student turns them off (or unsubscribes).
    await expect(
      page.getByRole('checkbox', { name: 'Mail me when a saved listing gets cheaper or sells' }),
    ).toBeChecked();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'alerts-saved');
  });

  await test.step('/profile/alerts lists the alert', async () => {
    await page.goto('/profile/alerts');
    await settle(page, (p) => p.getByRole('heading', { name: 'Your alerts' }));
    await expect(page.getByText(`“${title}”`)).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'alerts-profile');
  });

  await test.step('one click from the mail stops the alert', async () => {
    const mail = (await mailsTo(buyer.email)).find((m) => m.subject.startsWith('Listed: '))!;
    const link = linkIn(mail, '/alerts/unsubscribe');
    // The List-Unsubscribe URL opened in a browser: a page that asks first, and changes nothing.
    await page.goto(`/api${link}`);
    await expect(page.getByRole('heading', { name: 'Unsubscribe?' })).toBeVisible();
    await expect(page.getByText('the alert this mail came from')).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'alerts-unsubscribe-url');
    await page.goto(link);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status')).toContainText('Unsubscribed');
  });

  await test.step('a second matching listing mails the other watchers, not the buyer', async () => {
    await watcher.api.call('POST /api/alerts/create', { body: { searchTerm: title } });
    await createListing(seller, { name: `${title} II`, courseNumber: '302' });
    await waitForMail(watcher.email, /^Listed: /, { timeoutMs: 60_000 });
    expect(
      (await mailsTo(buyer.email)).filter((m) => m.subject.startsWith('Listed: ')),
    ).toHaveLength(1);
  });
});
