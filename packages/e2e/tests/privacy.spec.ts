import { expect, signInBrowser, test } from '../src/fixtures';
import { linkIn, waitForMail } from '../src/mail';
import { expectNoAxeViolations, screenshot } from '../src/page-check';

test('the privacy page, from sign-up and the footer, states what is kept and for how long', async ({
  page,
}, testInfo) => {
  await page.goto('/sign-up');
  await page.getByRole('link', { name: 'What we keep, why, and for how long' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { name: 'Privacy', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What we keep and why' })).toBeVisible();
  // The periods are the server's settings (RETENTION_* defaults), not a copy in the page.
  await expect(page.getByText('30 days, then removed.')).toBeVisible();
  await expect(page.getByText('365 days, then removed.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, testInfo, 'privacy');

  await page.goto('/about');
  await page
    .getByRole('navigation', { name: 'Footer' })
    .getByRole('link', { name: 'Privacy' })
    .click();
  await expect(page).toHaveURL(/\/privacy$/);
});

test('"Download my data" in the profile mails a link that hands the student the archive', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('exporter');
  await signInBrowser(page, student, '/profile');
  const section = page.getByRole('region', { name: 'Your data' });
  await section.getByRole('button', { name: 'Download my data' }).click();
  await expect(section.getByRole('status')).toContainText(student.email);
  await expectNoAxeViolations(page);
  const mail = await waitForMail(student.email, /data is ready/);
  const link = linkIn(mail, '/api/data-export/download');
  // The browser's own session: the link works for its owner, signed in.
  const archive = await page.request.get(link);
  expect(archive.status()).toBe(200);
  expect(archive.headers()['content-type']).toBe('application/x-tar');
  expect((await archive.body()).includes(Buffer.from('data.json'))).toBe(true);
});
